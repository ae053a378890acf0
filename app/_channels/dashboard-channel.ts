import type { ReactNode } from "react";
import type { SendStep } from "@/server/flows/flow-schemas.ts";
import type { Message } from "@/server/messaging/message-schemas.ts";
import type { Reachability } from "@/server/messaging/reachability.ts";
import type { ChannelForm } from "./connect-form.tsx";
import type { StepFieldsProps } from "@/app/w/[workspace]/flows/_components/step-fields.tsx";

export type ChannelType = Message["channel"];

// Issue 49: a channel's parts of the dashboard, one folder a channel (app/_channels/<type>/),
// registered by type in app/_channels/channels.ts as the server's modules are in
// server/channels/registry.ts.

/** A text of a send step's content, by the path its errors name (`sms.body`): how it is read and written. */
export type StepText = { get(step: SendStep): string | undefined; set(step: SendStep, text: string): SendStep };

/** The props of a text's control: its value, its change, where placeholders go, its error's description, its cursor. */
export type TextControlProps = {
  value: string;
  onFocus(): void;
  onChange(event: { target: { value: string } }): void;
  ref(element: HTMLInputElement | HTMLTextAreaElement | null): void;
  "aria-invalid"?: true;
  "aria-describedby"?: string;
};

/** What a channel's fields of a send step are given by the step's editor (flows/_components/send-step-fields.tsx). */
export type StepContentProps = StepFieldsProps<SendStep> & {
  /** The id the step's controls' ids start with. */
  id: string;
  /** The control props of one of the channel's `texts`. */
  text(path: string): TextControlProps;
  /** The error attributes of a control at `path` (under the step). */
  a11y(path: string): { "aria-invalid"?: true; "aria-describedby"?: string };
};

export interface DashboardChannel<T extends ChannelType = ChannelType> {
  /** The connect form, the channel card's details and callback hint, the test message dialog. */
  form: ChannelForm<T>;
  /** A flow send step's content of this channel (D37) in the journey editor. */
  step: {
    /** The content of a step switched to this channel. */
    empty: Partial<SendStep>;
    /** Its texts, the first where placeholders go until another is edited. */
    texts: Record<string, StepText>;
    /** Whether the step has texts that take placeholders (not a WhatsApp step that only sends a template); absent: always. */
    takesPlaceholders?(step: SendStep): boolean;
    Fields(props: StepContentProps): ReactNode;
  };
  /** The message page's content: the content as sent (placeholders filled, stored as JSON), and the message. */
  MessageContent(props: { content: unknown; message: Message }): ReactNode;
  /** A contact's reachability on this channel beyond its verdict and reasons (WhatsApp's window); absent: nothing more. */
  ReachDetails?(props: { reach: Reachability[T] }): ReactNode;
}
