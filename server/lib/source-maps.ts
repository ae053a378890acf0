// Imported first by server/main.ts, before Next and Prisma load. While source maps are on
// (tsx turns them on for its stack traces), Node parses and keeps the source map of every
// module it loads: Next's server bundles bring most of them, a large part of the production
// server's heap (docs/architecture.md, "One process, two front doors"). The production server
// runs without them; a stack trace of the server's own TypeScript then points into tsx's
// transpiled text (same files, lines near the original).
// `npm run dev` keeps them.
if (process.env.NODE_ENV === "production" && !process.argv.includes("--dev")) process.setSourceMapsEnabled(false);
