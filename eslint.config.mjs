import { readdirSync } from "node:fs";
import nextVitals from "eslint-config-next/core-web-vitals";
import nextTs from "eslint-config-next/typescript";

// Domain services, and the layers below them (see docs/architecture.md): every folder of
// server/ that is not listed below is a domain, so a new one is covered.
// Not domains: the edges (api, pipeline, cli, inbound, auth, demo), observability (used by all) and generated code.
const NOT_DOMAINS = ["api", "pipeline", "cli", "inbound", "auth", "demo", "observability", "generated"];
const BELOW_SERVICES = ["outbox", "db", "lib"];
const SERVICES = readdirSync(new URL("./server", import.meta.url), { withFileTypes: true })
  .filter((d) => d.isDirectory() && !NOT_DOMAINS.includes(d.name) && !BELOW_SERVICES.includes(d.name))
  .map((d) => d.name);

/** What no service (nor anything below them) may import: an edge, or Next. */
const NO_EDGES = [
  {
    group: ["**/api/*", "**/pipeline/*", "**/cli/*", "**/inbound/*", "@/app/*", "**/app/*"],
    message: "Services never import an edge (api, pipeline, cli, inbound, app).",
  },
  { group: ["next", "next/*", "next-auth", "next-auth/*"], message: "Services never import Next: keep it at the edges." },
];

// The send path's folders, lowest first: each imports only the ones before it, so no two of them
// import each other (docs/architecture.md "Layers"). Providers sit lowest and import no domain
// at all: only lib, db (with the schema's generated types), observability and themselves.
const SEND_LAYERS = ["providers", "whatsapp", "channels", "messaging"];

/** A send-path folder's rule: the edges, and every folder above it in SEND_LAYERS. */
const sendLayer = (name, index) => ({
  files: [`server/${name}/**/*.ts`],
  rules: {
    "no-restricted-imports": [
      "error",
      {
        patterns: [
          ...NO_EDGES,
          name === "providers"
            ? {
                group: [
                  "../*",
                  "!../lib",
                  "!../lib/*",
                  "!../db",
                  "!../db/*",
                  "!../generated",
                  "!../generated/**",
                  "!../observability",
                  "!../observability/*",
                  "@/*",
                ],
                message:
                  "Providers import only server/lib, server/db (and the schema's generated types), server/observability and each other.",
              }
            : {
                group: SEND_LAYERS.slice(index + 1).flatMap((above) => [`../${above}/*`, `@/server/${above}/*`]),
                message: `The send path's folders import downward only (${SEND_LAYERS.join(" < ")}): ${name} imports none of ${SEND_LAYERS.slice(index + 1).join(", ")}.`,
              },
        ],
      },
    ],
  },
});

const config = [
  ...nextVitals,
  ...nextTs,
  {
    ignores: [
      ".next/**",
      "node_modules/**",
      "server/generated/**",
      ".data/**",
      "test-results/**",
      "playwright-report/**",
      "next-env.d.ts",
      "packages/*/dist/**",
    ],
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
  // After the services' rule, which they replace for these folders (it is kept in NO_EDGES).
  // Tests too: a test that imports upward would tie two folders both ways as well.
  ...SEND_LAYERS.slice(0, -1).map(sendLayer), // the top one, messaging, may import all three
  {
    // Test clients read untyped JSON bodies; Playwright fixtures call `use`, which is no React hook.
    files: ["e2e/**/*.ts", "bench/**/*.ts"],
    rules: { "@typescript-eslint/no-explicit-any": "off", "react-hooks/rules-of-hooks": "off" },
  },
];

export default config;
