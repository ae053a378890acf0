import { describe, expect, it } from "vitest";
import { CHANNEL_TYPES } from "@/app/_channels/channel-words.ts";
import { readFilters, searchInput } from "./message-filters.ts";

describe("the messages' channel filter", () => {
  it("takes every channel type of the registry, SMS included (D94), and nothing else", () => {
    for (const type of CHANNEL_TYPES) {
      const filters = readFilters(new URLSearchParams({ channel: type }));
      expect(filters.channel).toBe(type);
      expect(searchInput(filters, "live")).toEqual({ mode: "live", channel: type });
    }
    expect(CHANNEL_TYPES).toContain("sms");
    expect(readFilters(new URLSearchParams({ channel: "fax" })).channel).toBe("");
  });
});
