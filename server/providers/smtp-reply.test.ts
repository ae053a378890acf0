import { describe, expect, it } from "vitest";
import { relayMessageId } from "./smtp.ts";

describe("the relay's id in its 250 reply", () => {
  it("reads Amazon SES's and Postfix's, and nothing from other replies", () => {
    expect(relayMessageId("250 Ok 0100018c8d2f1a2b-1f2e3d4c-5b6a-7988-a1b2-c3d4e5f60718-000000")).toBe(
      "0100018c8d2f1a2b-1f2e3d4c-5b6a-7988-a1b2-c3d4e5f60718-000000",
    );
    expect(relayMessageId("250 2.0.0 Ok: queued as 4FQ3Zk1YbHz9sWG\r\n")).toBe("4FQ3Zk1YbHz9sWG");
    expect(relayMessageId("250 OK: message queued")).toBeNull();
    expect(relayMessageId("250 2.6.0 <a@b> [InternalId=1] Queued mail for delivery")).toBeNull();
    expect(relayMessageId("550 5.1.1 Ok nope")).toBeNull();
    expect(relayMessageId("")).toBeNull();
  });
});
