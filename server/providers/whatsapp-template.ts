// A WhatsApp template message as stored with the message and sent to the Cloud API (D42): the
// template's name, language and parameters filled (whatsapp/check-template-send.ts fills them).

/** The stored content of a template message: what the Cloud API receives, and a preview. */
export type TemplateContent = {
  template: {
    name: string;
    language: string;
    parameter_format: string;
    parameters: { name: string; component: "header" | "body"; meta_name: string; text: string }[];
  };
  /** The body with its parameters filled, for the dashboard and the inspector. */
  body: string;
};

/** The Cloud API's `template` object of a stored template message (`type: "template"`). */
export function cloudTemplatePayload(content: TemplateContent["template"]): Record<string, unknown> {
  const named = content.parameter_format === "named";
  const component = (type: "header" | "body") => {
    const parameters = content.parameters
      .filter((p) => p.component === type)
      .map((p) => ({ type: "text", text: p.text, ...(named ? { parameter_name: p.meta_name } : {}) }));
    return parameters.length ? [{ type, parameters }] : [];
  };
  const components = [...component("header"), ...component("body")];
  return { name: content.name, language: { code: content.language }, ...(components.length ? { components } : {}) };
}
