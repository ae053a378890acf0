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

// D48: the limits apply to the rendered text, and rendering stops as soon as one is passed.
describe("rendered-length limits (D48)", () => {
  const limit = { param: "whatsapp.body", max: 20, unit: "characters" } as const;

  it("renders up to the limit exactly", () => {
    const values = placeholderValues({ v: "x".repeat(10) }, contact);
    expect(render("0123456789{{v}}", values, { missing: "refuse", limit })).toHaveLength(20);
  });

  it("refuses one character over the limit with rendered_too_long and the field as param", () => {
    const values = placeholderValues({ v: "x".repeat(11) }, contact);
    expect(() => render("0123456789{{v}}", values, { missing: "refuse", limit })).toThrow(
      expect.objectContaining({ status: 400, type: "invalid_request", code: "rendered_too_long", param: "whatsapp.body" }),
    );
  });

  it("counts the escaped value in HTML, in UTF-8 bytes", () => {
    const html = { param: "email.html", max: 12, unit: "bytes" } as const;
    // "&&" escapes to "&amp;&amp;" (10 bytes); "é" is 2 bytes.
    expect(render("{{v}}é", placeholderValues({ v: "&&" }, contact), { missing: "refuse", html: true, limit: html })).toBe("&amp;&amp;é");
    expect(() => render("{{v}}éé", placeholderValues({ v: "&&" }, contact), { missing: "refuse", html: true, limit: html })).toThrow(
      expect.objectContaining({ code: "rendered_too_long", param: "email.html" }),
    );
  });

  it("stops at the first piece past the limit: an amplifying template costs about the limit, not the whole output", () => {
    // 40,000 placeholders of 1,000 escaped ampersands would be 200,000,000 characters.
    const template = "{{a}}".repeat(40_000);
    const values = placeholderValues({ a: "&".repeat(1000) }, contact);
    let filled = 0;
    const get = values.get.bind(values);
    values.get = (name: string) => (filled++, get(name));
    expect(() =>
      render(template, values, { missing: "refuse", html: true, limit: { param: "email.html", max: 512 * 1024, unit: "bytes" } }),
    ).toThrow(expect.objectContaining({ code: "rendered_too_long" }));
    // Each value is 5,000 bytes escaped: the 105th passes 512 KiB, and rendering stops there.
    expect(filled).toBe(Math.floor((512 * 1024) / 5000) + 1);
  });
});
