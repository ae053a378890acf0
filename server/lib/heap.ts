import { setFlagsFromString } from "node:v8";

// Imported first by server/main.ts. Under load most of what a request allocates dies young,
// but some lives through two scavenges (a request waiting on a shared statement) and lands in
// the old generation as garbage. V8 lets that generation grow to up to four times what was
// live after its last full collection before it collects again: at 1,800 POST /messages a
// second, 250 MB of old-generation garbage over about 50 MB live, and a peak resident size of
// 300-410 MB from one run to the next. Growing it by at most a fifth instead: the same rate,
// a peak of 219-225 MB, and full collections every half second rather than every four (main
// thread time in collections 1.21 -> 1.29 s over 16 s of load). Not a cap: the heap still
// grows with what is live.
setFlagsFromString("--heap-growing-percent=20");
