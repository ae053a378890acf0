import { engineTests, usageTests } from "./svc-suite.ts";

usageTests();
engineTests("pglite");
