import { describe, expect, it } from "vitest";
import { placeholderValues, render } from "./render.ts";

const contact = { id: "ct_1", name: "Ana", phone: "+5511987654321", email: "ana@example.com", fields: { plan: "gold", visits: 3 } };

describe("placeholders (D17)", () => {
  it("fills from variables, then custom fields, then the contact's built-ins", () => {
    const values = placeholderValues({ plan: "silver" }, contact);
    expect(render("Hi {{name}}, {{ plan }} plan, {{visits}} visits, id {{contact_id}}", values, { missing: "refuse" })).toBe(
      "Hi Ana, silver plan, 3 visits, id ct_1",
    );
  });

  it("refuses a missing value in API sends with param variables.<name>", () => {
    expect(() => render("Code {{code}}", placeholderValues({}, contact), { missing: "refuse" })).toThrow(
      expect.objectContaining({ param: "variables.code", code: "missing_variable" }),
    );
  });

  it("renders a missing value as empty text in flows", () => {
    expect(render("Code [{{code}}]", placeholderValues({}, contact), { missing: "empty" })).toBe("Code []");
  });

  it("escapes values inserted into HTML", () => {
    const values = placeholderValues({ name: `<script>alert("x")</script> & 'y'` }, contact);
    expect(render("<p>{{name}}</p>", values, { missing: "refuse", html: true })).toBe(
      "<p>&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; &#39;y&#39;</p>",
    );
  });

  it("leaves text without placeholders alone, including single braces", () => {
    expect(render("{not} {{ }} x", placeholderValues({}, contact), { missing: "refuse" })).toBe("{not} {{ }} x");
  });
});
