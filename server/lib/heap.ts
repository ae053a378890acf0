import { setFlagsFromString } from "node:v8";

// Imported first by server/main.ts. Under load most of what a request allocates dies young,
// but some lives through two scavenges (a request waiting on a shared statement) and lands in
// the old generation as garbage. V8 lets that generation grow to up to four times what was
// live after its last full collection before it collects again: at 1,800 POST /messages a
// second, 250 MB of old-generation garbage over about 50 MB live, and a peak resident size of
// 300-410 MB from one run to the next. Growing it by at most half instead: a peak of 221-250
// MB. A fifth gave 219-239 MB, but collected so often that V8's helper threads, which mark
// the heap beside the main thread, took 172-208 ticks of CPU in ten seconds of bursts of 200
// live sends, against 148-159 at a half (138-142 with V8's default), CPU that the server's
// main thread and PostgreSQL need on a small machine. Not a cap: the heap still grows with
// what is live.
setFlagsFromString("--heap-growing-percent=50");
