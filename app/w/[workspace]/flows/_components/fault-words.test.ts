import { describe, expect, it } from "vitest";
import { faultPlace, faultWords, inWords } from "./fault-words.ts";

const fault = (param: string | null, detail: string) => ({ param, message: param ? `${param}: ${detail}` : detail });

describe("a refused flow document's fault, placed at its step and said in words", () => {
  it("finds the step of a path through branches, wait_for paths and split paths, and the field in it", () => {
    expect(faultPlace("steps.0.whatsapp.body")).toEqual({ position: [0], field: "whatsapp.body" });
    expect(faultPlace("steps.2.then.0.if.has_tag")).toEqual({ position: [2, "then", 0], field: "if.has_tag" });
    expect(faultPlace("steps.1.on_timeout.3.duration")).toEqual({ position: [1, "on_timeout", 3], field: "duration" });
    expect(faultPlace("steps.4.paths.1.steps.0.add.0")).toEqual({ position: [4, "paths.1.steps", 0], field: "add.0" });
    expect(faultPlace("steps.4.paths.1.weight")).toEqual({ position: [4], field: "paths.1.weight" });
    expect(faultPlace("steps.3")).toEqual({ position: [3], field: "" });
    expect(faultPlace("steps")).toEqual({ position: null, field: "steps" });
    expect(faultPlace("trigger.event")).toEqual({ position: null, field: "trigger.event" });
    expect(faultPlace(null)).toBeNull();
  });

  it("says what to do instead of the server's path and wording", () => {
    expect(faultWords(fault("steps.0.whatsapp.body", "a WhatsApp message needs whatsapp.body or whatsapp.media_url"))).toBe(
      "Write the message or add a media URL.",
    );
    expect(faultWords(fault("steps.0.sms.body", "an SMS needs sms.body"))).toBe("Write the SMS.");
    expect(faultWords(fault("steps.0.then.1.duration", "must be an ISO 8601 duration such as PT1H or P2D"))).toBe(
      "Enter a duration such as PT1H (an hour) or P2D (two days).",
    );
    expect(faultWords(fault("steps.1.if.has_tag", "must not be empty"))).toBe("Choose a tag.");
    expect(faultWords(fault("steps.1.if.has_tag", "no tag with id tag_x in this workspace."))).toBe(
      "This tag no longer exists: choose another.",
    );
    expect(faultWords(fault("steps.2.add", "give tag ids to add or remove"))).toBe("Choose at least one tag to add or remove.");
    expect(faultWords(fault("steps.2.paths.0.weight", "must be a positive whole number"))).toBe(
      "Give path 1 a whole-number weight of 1 or more.",
    );
    expect(faultWords(fault("steps.3.event", "give exactly one of event or message"))).toBe(
      "Choose an event or a message outcome to wait for.",
    );
    expect(faultWords(fault("steps.1.match.order id", "must be a dotted path such as items.0.name"))).toBe(
      "Name each property to match as a path such as order.id (letters, digits, _ and -, joined by dots).",
    );
    expect(faultWords(fault("name", "must not be empty"))).toBe("Name the flow.");
    expect(faultWords(fault("steps", "a flow needs at least one step"))).toBe("Add at least one step.");
  });

  it("falls back to the server's detail as a sentence, without the path", () => {
    expect(faultWords(fault("steps.0.whatsapp.template.name", "no approved template named order_update in en_US"))).toBe(
      "No approved template named order_update in en_US.",
    );
    expect(faultWords({ param: "steps.0.colour", message: "steps.0.colour is not a known parameter of this request." })).toBe(
      "“colour” is not part of this step: remove it.",
    );
    expect(faultWords({ param: null, message: "Failed to fetch" })).toBe("Failed to fetch.");
    expect(inWords(fault("steps.0.email.html", "an e-mail needs email.html"))).toEqual({
      param: "steps.0.email.html",
      message: "Write the e-mail's content.",
    });
    expect(inWords(null)).toBeNull();
  });
});
