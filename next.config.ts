import type { NextConfig } from "next";

const nextConfig: NextConfig = {
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
};

export default nextConfig;
