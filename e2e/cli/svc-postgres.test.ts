import { engineTests } from "./svc-suite.ts";

engineTests("postgres");
