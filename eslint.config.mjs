import { readdirSync } from "node:fs";
import nextVitals from "eslint-config-next/core-web-vitals";
import nextTs from "eslint-config-next/typescript";

// Domain services, and the layers below them (see docs/architecture.md): every folder of
// server/ that is not listed below is a domain, so a new one is covered.
// Not domains: the edges (api, pipeline, cli, auth, demo), observability (used by all) and generated code.
const NOT_DOMAINS = ["api", "pipeline", "cli", "auth", "demo", "observability", "generated"];
const BELOW_SERVICES = ["outbox", "db", "lib"];
const SERVICES = readdirSync(new URL("./server", import.meta.url), { withFileTypes: true })
  .filter((d) => d.isDirectory() && !NOT_DOMAINS.includes(d.name) && !BELOW_SERVICES.includes(d.name))
  .map((d) => d.name);

/** What no service (nor anything below them) may import: an edge, or Next. */
const NO_EDGES = [
  {
    group: ["**/api/*", "**/pipeline/*", "**/cli/*", "@/app/*", "**/app/*"],
    message: "Services never import an edge (api, pipeline, cli, app).",
  },
  { group: ["next", "next/*", "next-auth", "next-auth/*"], message: "Services never import Next: keep it at the edges." },
];

const config = [
  ...nextVitals,
  ...nextTs,
  {
    ignores: [".next/**", "node_modules/**", "server/generated/**", ".data/**", "test-results/**", "playwright-report/**", "next-env.d.ts"],
  },
  {
    rules: {
      "@typescript-eslint/no-explicit-any": ["error", { ignoreRestArgs: true }],
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_" }],
    },
  },
  {
    // The layers: domain services (and the outbox, database and library code below them) never
    // reach up into the edges: the REST/tRPC layer, the pipeline that runs jobs, the CLI, the
    // dashboard's pages or Next itself. Edges call services, never the other way round.
    files: [`server/{${SERVICES.join(",")}}/**/*.ts`],
    ignores: ["**/*.test.ts"],
    rules: {
      "no-restricted-imports": [
        "error",
        {
          patterns: [...NO_EDGES],
        },
      ],
    },
  },
  {
    // The outbox, the database and the shared library sit below every domain.
    files: [`server/{${BELOW_SERVICES.join(",")}}/**/*.ts`],
    ignores: ["**/*.test.ts"],
    rules: {
      "no-restricted-imports": [
        "error",
        {
          patterns: [
            ...NO_EDGES,
            {
              group: SERVICES.map((name) => `../${name}/*`),
              message: "The outbox, db and lib sit below the domains: they never import one.",
            },
          ],
        },
      ],
    },
  },
  {
    // Test clients read untyped JSON bodies; Playwright fixtures call `use`, which is no React hook.
    files: ["e2e/**/*.ts", "bench/**/*.ts"],
    rules: { "@typescript-eslint/no-explicit-any": "off", "react-hooks/rules-of-hooks": "off" },
  },
];

export default config;
