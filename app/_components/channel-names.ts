import { wordsTable } from "../_channels/channel-words.ts";

// A channel's name as the dashboard writes it, one table per use, for every channel type (each
// channel's app/_channels/<type>/words.ts).

/** As a label (a column, a select's option, a heading). */
export const CHANNEL_LABEL = wordsTable((words) => words.label);

/** Inside a sentence. */
export const CHANNEL_WORDS = wordsTable((words) => words.inSentence);

/** Its colour in the usage's bars and charts and on its badge. */
export const CHANNEL_COLOR = wordsTable((words) => words.color);

/** With its article, as it is read aloud ("an SMS"). */
export const A_CHANNEL = wordsTable((words) => words.withArticle);

/** Several names in a sentence: "WhatsApp and e-mail", "WhatsApp, e-mail, and SMS". */
export const listed = (names: readonly string[]) => new Intl.ListFormat("en").format(names);
