import { z } from "zod";
import { ZMessage, ZMessageDryRun, ZSendMessageRequest } from "../../../messaging/message-schemas.ts";
import type { ErrorCode } from "../../../lib/error-catalog.ts";
import type { Meta } from "../../trpc.ts";

/** What a send can answer beyond the platform's errors: a single send's, and each item's of a batch. */
export const SEND_ERRORS = [
  "resource_missing",
  "invalid_phone",
  "invalid_email",
  "recipient_missing_address",
  "missing_variable",
  "rendered_too_long",
  "recipient_opted_out",
  "recipient_suppressed",
  "channel_not_connected",
  "channel_paused",
  "marketing_opted_out",
  "whatsapp_window_closed",
  "template_not_found",
  "template_not_approved",
  "daily_limit_reached",
  "monthly_limit_reached",
] as const satisfies readonly ErrorCode[];

export const sendMessageMeta: Meta = {
  openapi: {
    method: "POST",
    path: "/messages",
    tags: ["Messages"],
    summary: "Send a message",
    description:
      "Accepts the message and answers `202` with status `queued`; the result arrives by webhook or `GET /messages/{id}`. " +
      "Checks, in order: `channel_id` (404), the recipient's address (400), opt-out (409), for live e-mail a suppressed address (409), a connected channel for live keys (409), " +
      "placeholders (400, `variables.<name>`), then the daily and monthly limits for live keys (403 `quota_exceeded`). " +
      "A test key dispatches nothing and simulates the states. " +
      "With `dry_run: true` nothing is written, sent or counted: the same checks run (the limits are read, not counted) and the answer is `200` with the message as it would be created, " +
      "its content rendered and no `id`, or the error the send would answer.",
    protect: true,
  },
  scope: "messages:send",
  idempotent: true,
  dryRun: true,
  successStatus: 202,
  errors: SEND_ERRORS,
};

/** A send's message (202), or a dry run's (200). */
export const ZSendMessageResponse = z.union([ZMessage, ZMessageDryRun]);

export { ZSendMessageRequest };
