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
  // The build does not write Turbopack's cache to disk: the first `npm start` after `npm ci`
  // has none to read, and writing it held the build after all its own work had ended (80 s of
  // 432 s, and 232 s of 1,889 s, on the loaded 2-core machine; the build's trace, .next/trace).
  experimental: { preloadEntriesOnStart: false, turbopackFileSystemCacheForBuild: false },
};

export default nextConfig;
