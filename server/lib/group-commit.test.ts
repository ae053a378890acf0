import { expect, it } from "vitest";
import { groupCommit, groupCommitEach } from "./group-commit.ts";

// Issue 11: concurrent writes of a process share their round trips. The first call goes alone;
// what arrives while a batch is in flight goes out together when it ends.
it("sends the first call alone, then what arrived meanwhile as one batch, one batch at a time", async () => {
  const batches: number[][] = [];
  let inFlight = 0;
  let most = 0;
  const write = groupCommit<number, number>(async (keys) => {
    batches.push([...keys]);
    most = Math.max(most, ++inFlight);
    await new Promise((r) => setTimeout(r, 20));
    inFlight--;
    return keys.map((k) => k * 10);
  });
  const first = write(1);
  await new Promise((r) => setTimeout(r, 5)); // the first batch is in flight
  const rest = [2, 3, 4, 5].map((k) => write(k));
  expect(await Promise.all([first, ...rest])).toEqual([10, 20, 30, 40, 50]);
  expect(batches).toEqual([[1], [2, 3, 4, 5]]);
  expect(most).toBe(1);
});

it("rejects only the key whose answer is an Error, and every key when the batch throws", async () => {
  const write = groupCommit<number, string>(async (keys) => {
    if (keys.includes(0)) throw new Error("down");
    return keys.map((k) => (k === 2 ? new Error("refused 2") : `ok ${k}`));
  });
  const results = await Promise.allSettled([1, 2, 3].map((k) => write(k)));
  expect(results.map((r) => (r.status === "fulfilled" ? r.value : (r.reason as Error).message))).toEqual(["ok 1", "refused 2", "ok 3"]);
  const failed = await Promise.allSettled([0, 4].map((k) => write(k)));
  expect(failed.map((r) => r.status)).toEqual(["rejected", "rejected"]);
  expect(await write(5)).toBe("ok 5"); // the next batch goes out after a failed one
});

it("caps a batch at maxBatchSize; the rest follow in order", async () => {
  const sizes: number[] = [];
  const write = groupCommit<number, number>(
    async (keys) => {
      sizes.push(keys.length);
      await new Promise((r) => setTimeout(r, 5));
      return [...keys];
    },
    { maxBatchSize: 3 },
  );
  expect(await Promise.all([1, 2, 3, 4, 5, 6, 7].map((k) => write(k)))).toEqual([1, 2, 3, 4, 5, 6, 7]);
  expect(sizes).toEqual([3, 3, 1]);
});

it("writes each key of a failed batch alone when asked, so a fault stays with its key", async () => {
  const batches: number[][] = [];
  const write = groupCommit<number, number>(
    async (keys) => {
      batches.push([...keys]);
      await new Promise((r) => setTimeout(r, 5));
      if (keys.includes(3)) throw new Error("bad 3");
      return [...keys];
    },
    { alone: (err) => (err as Error).message.startsWith("bad") },
  );
  const first = write(1);
  await new Promise((r) => setTimeout(r, 1));
  const results = await Promise.allSettled([first, ...[2, 3, 4].map((k) => write(k))]);
  expect(results.map((r) => (r.status === "fulfilled" ? r.value : (r.reason as Error).message))).toEqual([1, 2, "bad 3", 4]);
  expect(batches).toEqual([[1], [2, 3, 4], [2], [3], [4]]);
});

it("keeps up to inFlight batches in flight when asked, and batches what comes beyond them", async () => {
  const batches: number[][] = [];
  let inFlight = 0;
  let most = 0;
  const write = groupCommit<number, number>(
    async (keys) => {
      batches.push([...keys]);
      most = Math.max(most, ++inFlight);
      await new Promise((r) => setTimeout(r, 20));
      inFlight--;
      return [...keys];
    },
    { inFlight: 2 },
  );
  const first = write(1);
  await new Promise((r) => setTimeout(r, 2));
  const second = write(2);
  await new Promise((r) => setTimeout(r, 2));
  const rest = [3, 4, 5].map((k) => write(k));
  expect(await Promise.all([first, second, ...rest])).toEqual([1, 2, 3, 4, 5]);
  expect(batches).toEqual([[1], [2], [3, 4, 5]]);
  expect(most).toBe(2);
});

it("keeps each owner's calls in batches of their own", async () => {
  const batches: string[][] = [];
  const write = groupCommitEach(async (owner: { name: string }, keys: readonly number[]) => {
    batches.push(keys.map((k) => `${owner.name}${k}`));
    await new Promise((r) => setTimeout(r, 5));
    return [...keys];
  });
  const a = { name: "a" };
  const b = { name: "b" };
  expect(await Promise.all([write(a, 1), write(b, 2), write(a, 3), write(b, 4)])).toEqual([1, 2, 3, 4]);
  expect(batches).toEqual([
    ["a1", "a3"],
    ["b2", "b4"],
  ]);
});
