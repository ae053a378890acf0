// JavaScript, not TypeScript: Next compiles a next.config.ts with its native SWC binding at
// every start, and that binding (its threads and mapped code) then stays in the production
// server, about 30 MB of resident memory for one small file.
/** @type {import("next").NextConfig} */
const nextConfig = {
  // Server packages that must stay real Node modules: the database drivers (PGlite opens
  // its store once per process, shared with server/main.ts through globalThis), Prisma's
  // generated client runtime, and pino.
  serverExternalPackages: [
    "@electric-sql/pglite",
    "pglite-prisma-adapter",
    "@prisma/adapter-pg",
    "@prisma/client",
    "pg",
    "pino",
    "nodemailer",
  ],
  poweredByHeader: false,
  // `npm run lint` type-checks the whole project (tsc --noEmit); the build does not repeat it.
  typescript: { ignoreBuildErrors: true },
  reactStrictMode: true,
  // Pages' server code loads on a page's first request, not all at start: the dashboard's
  // pages are few requests beside the API's many, and preloading them all held about 20 MB.
  experimental: { preloadEntriesOnStart: false },
};

export default nextConfig;
