import { describe, expect, it } from "vitest";
import { COMMANDS } from "./registry.ts";

describe("the CLI's command registry", () => {
  it("names and summarizes each command as its module does, so --help lists them without loading them", async () => {
    for (const entry of COMMANDS) {
      const command = await entry.load();
      expect({ name: command.name, summary: command.summary }).toEqual({ name: entry.name, summary: entry.summary });
    }
    expect(new Set(COMMANDS.map((c) => c.name)).size).toBe(COMMANDS.length);
  });
});
