"use client";

import { useQuery } from "@tanstack/react-query";
import { useMemo } from "react";
import { useTRPC } from "./trpc.ts";

/** The lists are short: the dashboard reads them whole (1000 is the API's page maximum, D10). */
const ALL = { limit: 1000 } as const;

/** The workspace's tags, in creation order, and a map by id for showing contacts' tag ids. */
export function useWorkspaceTags() {
  const trpc = useTRPC();
  const tags = useQuery(trpc.tags.list.queryOptions(ALL));
  const byId = useMemo(() => new Map((tags.data ?? []).map((tag) => [tag.id, tag])), [tags.data]);
  return { ...tags, byId };
}

/** The workspace's custom fields, in creation order. */
export function useWorkspaceFields() {
  const trpc = useTRPC();
  return useQuery(trpc.fields.list.queryOptions(ALL));
}
