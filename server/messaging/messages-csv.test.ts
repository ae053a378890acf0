import { describe, expect, it } from "vitest";
import { csvLine, csvValue } from "./messages-csv.ts";

describe("CSV values", () => {
  it("quotes commas, quotes and line breaks", () => {
    expect(csvValue('Say "hi", then\nleave')).toBe('"Say ""hi"", then\nleave"');
    expect(csvLine(["a", null, "b,c"])).toBe('a,,"b,c"\r\n');
  });
  it("keeps phone numbers but defuses formulas", () => {
    expect(csvValue("+15550100001")).toBe("+15550100001");
    expect(csvValue('=HYPERLINK("x")')).toBe('"\'=HYPERLINK(""x"")"');
    expect(csvValue("@SUM(A1)")).toBe("'@SUM(A1)");
    expect(csvValue("-1+2")).toBe("'-1+2");
  });
});
