import { describe, expect, it } from "vitest";
import type { Contact } from "@/server/contacts/contact-schemas.ts";
import { contactChanges, type ContactFormValues } from "./contact-changes.ts";

const values = (optOuts: Partial<ContactFormValues["optOuts"]>): ContactFormValues => ({
  name: "Ana",
  phone: "+5511987654321",
  email: "",
  tags: [],
  fields: {},
  optOuts: { opt_out_whatsapp: false, opt_out_email: false, opt_out_sms: false, ...optOuts },
  timeZone: "",
});

const stored = {
  id: "c_1",
  name: "Ana",
  phone: "+5511987654321",
  email: null,
  tags: [],
  fields: {},
  time_zone: null,
  opt_out_whatsapp: false,
  opt_out_email: true,
  opt_out_sms: false,
} as unknown as Contact;

describe("the contact form's opt-outs", () => {
  it("sends a new contact's opt-outs of every channel, SMS's included (D38)", () => {
    expect(contactChanges(values({ opt_out_sms: true }), null).changes).toEqual({
      name: "Ana",
      phone: "+5511987654321",
      opt_out_sms: true,
    });
  });

  it("sends only the opt-outs an edit changed", () => {
    expect(contactChanges(values({ opt_out_email: true, opt_out_sms: true }), stored).changes).toEqual({ opt_out_sms: true });
    expect(contactChanges(values({}), stored).changes).toEqual({ opt_out_email: false });
  });
});
