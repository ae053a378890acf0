import { parseArgs } from "node:util";
import { UsageError, type Command, type Values } from "./command.ts";
import { COMMANDS } from "./registry.ts";

// `svc <command> [options] [--json]`: the operator CLI of operations.md. An edge like the REST
// facade: it parses flags, calls the domain services and prints their result, as text or as
// exactly one JSON object on stdout. Failures go to stderr; with `--json` a failure also
// prints one object on stdout, `{"error":{"code","message"}}`, so a script reading stdout
// always gets JSON. The exit status is 0 on success, 1 when the command failed and 2 on bad
// usage.
//
// It answers fast (docs/architecture.md "Operator CLI"): the help comes from the registry
// alone, and only the command that runs is loaded (registry.ts), with the services it calls.

const GLOBAL = {
  json: { type: "boolean" },
  help: { type: "boolean", short: "h" },
} as const;

const EXIT_FAILED = 1;
const EXIT_USAGE = 2;

function topUsage(): string {
  const width = Math.max(...COMMANDS.map((c) => c.name.length));
  return [
    "svc: operate the messaging and journeys service from a shell, scripts or CI.",
    "",
    "Usage: svc <command> [options] [--json]",
    "",
    "Commands:",
    ...COMMANDS.map((c) => `  ${c.name.padEnd(width)}  ${c.summary}`),
    "",
    "Options of every command:",
    "  --json       print exactly one JSON object on stdout",
    "  -h, --help   show help; svc <command> --help shows a command's options",
    "",
    "The database is the server's: DATABASE_URL (PostgreSQL) when set, otherwise the embedded",
    "store under DATA_DIR (default: the project's .data), which one process may open at a time.",
    "Exit status: 0 success, 1 the command failed, 2 bad usage.",
  ].join("\n");
}

function commandUsage(command: Command): string {
  const width = Math.max(0, ...command.help.map(([flag]) => flag.length));
  return [
    `svc ${command.name}: ${command.summary}.`,
    "",
    `Usage: svc ${command.usage} [--json]`,
    "",
    "Options:",
    ...command.help.map(([flag, text]) => `  ${flag.padEnd(width)}  ${text}`),
    `  ${"--json".padEnd(width)}  print exactly one JSON object on stdout`,
    `  ${"-h, --help".padEnd(width)}  show this help`,
  ].join("\n");
}

/** Splits `[global flags] word word [options]` into the command words and the rest. */
function splitCommand(args: string[]): { words: string[]; rest: string[]; leading: string[] } {
  const leading: string[] = [];
  let i = 0;
  while (i < args.length && (args[i] === "--json" || args[i] === "--help" || args[i] === "-h")) leading.push(args[i++]!);
  const words: string[] = [];
  while (i < args.length && words.length < 2 && !args[i]!.startsWith("-")) words.push(args[i++]!);
  return { words, rest: args.slice(i), leading };
}

function findCommand(words: string[]): { entry: (typeof COMMANDS)[number]; consumed: number } | null {
  for (let n = Math.min(words.length, 2); n > 0; n--) {
    const name = words.slice(0, n).join(" ");
    const entry = COMMANDS.find((c) => c.name === name);
    if (entry) return { entry, consumed: n };
  }
  return null;
}

// The error classes a failure is described by: loaded only once something failed (errors.ts
// and zod are half of what a command loads; the command that threw has loaded them already).
type Failures = { AppError: typeof import("../lib/errors.ts").AppError; ZodError: typeof import("zod").ZodError };
async function failureClasses(): Promise<Failures> {
  const [{ AppError }, { ZodError }] = await Promise.all([import("../lib/errors.ts"), import("zod")]);
  return { AppError, ZodError };
}

/** The flags, and the command's positional argument (words after its name, or among its flags) under its name. */
function parseFlags(command: Command, args: string[], extra: string[]): Values {
  try {
    const { values, positionals } = parseArgs({
      args,
      options: { ...command.options, ...GLOBAL },
      strict: true,
      allowPositionals: command.argument !== undefined,
    });
    const given = [...extra, ...positionals];
    if (given.length > (command.argument ? 1 : 0)) throw new UsageError(`unexpected argument "${given.at(-1)}".`);
    return command.argument && given[0] !== undefined ? { ...values, [command.argument]: given[0] } : (values as Values);
  } catch (err) {
    if (err instanceof UsageError) throw err;
    const e = err as Error & { code?: string };
    const flag = /'(-[^' ]+)/.exec(e.message)?.[1];
    const value = /argument '([^']*)'/i.exec(e.message)?.[1];
    if (e.code === "ERR_PARSE_ARGS_UNKNOWN_OPTION") throw new UsageError(`unknown option ${flag ?? e.message}.`);
    if (e.code === "ERR_PARSE_ARGS_INVALID_OPTION_VALUE") {
      throw new UsageError(/does not take/.test(e.message) ? `${flag} takes no value.` : `${flag} needs a value.`);
    }
    if (e.code === "ERR_PARSE_ARGS_UNEXPECTED_POSITIONAL") throw new UsageError(`unexpected argument "${value ?? e.message}".`);
    throw new UsageError(e.message);
  }
}

/** A failure as one clear line; a service parameter is named by the flag that carried it. */
function describeFailure({ AppError, ZodError }: Failures, err: unknown, command: Command, values: Values): string {
  const flagFor = (param: string | null | undefined) => (param ? command.flags?.[param.split(".")[0]!] : undefined);
  if (err instanceof ZodError) {
    const issue = err.issues[0];
    const flag = flagFor(issue?.path.map(String).join("."));
    return flag ? `invalid ${flag}: ${issue?.message}` : err.issues.map((i) => `${i.path.join(".") || "input"}: ${i.message}`).join("; ");
  }
  if (err instanceof AppError) {
    const flag = flagFor(err.param);
    if (!flag) return err.message;
    if (err.type === "invalid_request" && err.code !== "workspace_not_found")
      return `invalid ${flag}: ${err.message.replace(/^[\w.]+: /, "")}`;
    const value = values[flag.slice(2)];
    if (typeof value !== "string" || err.message.includes(value)) return err.message;
    return `${err.message.replace(/\.$/, "")} (${flag} ${value}).`;
  }
  return err instanceof Error ? err.message : String(err);
}

/**
 * A failure with `--json`: one JSON object on stdout. `code` is the service's error code
 * (server/lib/error-catalog.ts), `usage` for bad usage, `invalid_input` for an invalid value
 * and `failed` for anything else.
 */
function failureJson(err: unknown, message: string, { AppError, ZodError }: Partial<Failures> = {}): string {
  const code =
    err instanceof UsageError
      ? "usage"
      : AppError && err instanceof AppError
        ? err.code
        : ZodError && err instanceof ZodError
          ? "invalid_input"
          : "failed";
  return `${JSON.stringify({ error: { code, message } })}\n`;
}

export async function main(args: string[]): Promise<number> {
  const json = args.includes("--json");
  const usageFailure = (text: string, message: string): number => {
    process.stderr.write(text);
    if (json) process.stdout.write(failureJson(new UsageError(message), message));
    return EXIT_USAGE;
  };
  const { words, rest, leading } = splitCommand(args);
  const found = findCommand(words);
  const wantsHelp = leading.some((a) => a !== "--json") || rest.includes("--help") || rest.includes("-h");

  if (!found) {
    if (words.length === 0) {
      if (wantsHelp) {
        process.stdout.write(`${topUsage()}\n`);
        return 0;
      }
      return usageFailure(`${topUsage()}\n`, "svc needs a command. Run svc --help for the list of commands.");
    }
    const group = COMMANDS.filter((c) => c.name.split(" ")[0] === words[0]);
    if (group.length > 0 && words.length === 1) {
      const commands = await Promise.all(group.map((c) => c.load()));
      const text = [
        `Usage: svc ${words[0]} <${group.map((c) => c.name.split(" ")[1]).join("|")}> [options]`,
        "",
        ...commands.map((c) => `  svc ${c.usage}`),
      ].join("\n");
      if (wantsHelp) {
        process.stdout.write(`${text}\n`);
        return 0;
      }
      return usageFailure(`svc: ${words[0]} needs a subcommand.\n${text}\n`, `${words[0]} needs a subcommand.`);
    }
    const message = `unknown command "${words.join(" ")}". Run svc --help for the list of commands.`;
    return usageFailure(`svc: ${message}\n`, message);
  }

  const { entry, consumed } = found;
  const extra = words.slice(consumed);
  let values: Values = {};
  const command = await entry.load();
  try {
    if (wantsHelp) {
      process.stdout.write(`${commandUsage(command)}\n`);
      return 0;
    }
    values = parseFlags(command, [...leading, ...rest], extra);
    const output = await command.run(values);
    process.stdout.write(values.json ? `${JSON.stringify(output.json)}\n` : `${output.text}\n`);
    return 0;
  } catch (err) {
    if (err instanceof UsageError)
      return usageFailure(`svc ${command.name}: ${err.message}\nRun svc ${command.name} --help for usage.\n`, err.message);
    const classes = await failureClasses();
    const message = describeFailure(classes, err, command, values);
    process.stderr.write(`svc ${command.name}: ${message}\n`);
    if (json) process.stdout.write(failureJson(err, message, classes));
    return EXIT_FAILED;
  }
}

const status = await main(process.argv.slice(2));
// Exit as soon as the output is flushed: Prisma's WebAssembly schema engine leaves a timer of
// about 10 s behind after applying migrations, which would otherwise keep the process alive.
process.stdout.write("", () => process.stderr.write("", () => process.exit(status)));
