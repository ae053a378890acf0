// The npm registry reachable from our machines lacks some platform binaries (for example
// @next/swc-darwin-arm64), so `npm install` leaves them out of package-lock.json, and `npm ci`
// then refuses the lock ("Missing: … from lock file"). This adds each missing optional
// platform package back as an optional entry with its os and cpu, which npm ci skips on other
// platforms. Run after changing dependencies: `npm run lock`.
import { readFileSync, writeFileSync } from "node:fs";

const lock = JSON.parse(readFileSync("package-lock.json", "utf8"));
const packages = lock.packages;
const OS = ["darwin", "win32", "android", "freebsd", "openharmony", "linux", "sunos", "aix", "netbsd", "openbsd"];
const CPU = {
  arm64: "arm64",
  x64: "x64",
  ia32: "ia32",
  arm: "arm",
  loong64: "loong64",
  ppc64: "ppc64",
  riscv64: "riscv64",
  s390x: "s390x",
};

function platformOf(name) {
  const parts = name.split("/").pop().split("-");
  const os = OS.find((o) => parts.includes(o));
  const cpu = Object.keys(CPU).find((c) => parts.includes(c));
  return os && cpu ? { os, cpu } : null;
}

let added = 0;
for (const [path, entry] of Object.entries(packages)) {
  for (const [dep, spec] of Object.entries(entry.optionalDependencies ?? {})) {
    const base = path ? `${path}/node_modules/${dep}` : `node_modules/${dep}`;
    if (packages[base] || packages[`node_modules/${dep}`]) continue;
    const platform = platformOf(dep);
    if (!platform) continue;
    packages[`node_modules/${dep}`] = { version: spec.replace(/^[\^~]/, ""), cpu: [platform.cpu], os: [platform.os], optional: true };
    added++;
  }
}
const sorted = Object.fromEntries(Object.entries(packages).sort(([a], [b]) => (a === "" ? -1 : b === "" ? 1 : a.localeCompare(b))));
lock.packages = sorted;
writeFileSync("package-lock.json", `${JSON.stringify(lock, null, 2)}\n`);
console.log(`lock-platforms: added ${added} optional platform entries`);
