"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useState, type FormEvent } from "react";
import { Modal } from "@/app/_components/modal.tsx";
import { errorMessage, useTRPC } from "@/app/_components/trpc.ts";
import { ALL_SCOPES, isScope, MODES, SCOPES, type Mode, type Scope } from "@/server/keys/scopes.ts";
import { DialogFooter } from "@/app/_components/dialog-footer.tsx";

export type CreatedKey = { name: string; key: string };

const MODE_HINT: Record<Mode, string> = {
  test: "sandbox: simulates sending, spends no quota",
  live: "production: really sends",
};

type Props = { onClose: () => void; onCreated: (created: CreatedKey) => void };

export function CreateKeyDialog({ onClose, onCreated }: Props) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [formError, setFormError] = useState<string | null>(null);
  const [allScopes, setAllScopes] = useState(true);
  // gcTime 0: the full key leaves the mutation cache as soon as this dialog unmounts.
  const create = useMutation(trpc.keys.create.mutationOptions({ gcTime: 0 }));

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const name = String(form.get("name") ?? "").trim();
    const mode = form.get("mode") === "live" ? "live" : "test";
    // All scopes is stored as such: the key also holds scopes added later.
    const scopes: (Scope | typeof ALL_SCOPES)[] = allScopes ? [ALL_SCOPES] : form.getAll("scopes").map(String).filter(isScope);
    if (scopes.length === 0) return setFormError("Choose at least one scope.");
    setFormError(null);
    create.mutate(
      { name, mode, scopes },
      {
        onSuccess: async ({ key }) => {
          await queryClient.invalidateQueries(trpc.keys.list.queryFilter());
          onCreated({ name, key });
        },
      },
    );
  }

  const error = formError ?? (create.isError ? errorMessage(create.error) : null);
  return (
    <Modal title="Create API key" onClose={onClose}>
      <form className="stack" onSubmit={onSubmit}>
        <div className="field">
          <label htmlFor="key-name">Name</label>
          <input id="key-name" name="name" required maxLength={100} placeholder="e.g. Production backend" autoFocus />
        </div>
        <fieldset>
          <legend>Mode</legend>
          {MODES.map((mode) => (
            <label key={mode} className="choice">
              <input type="radio" name="mode" value={mode} defaultChecked={mode === "test"} />
              {mode === "test" ? "Test" : "Live"} <span className="muted">({MODE_HINT[mode]})</span>
            </label>
          ))}
        </fieldset>
        <fieldset>
          <legend>Scopes</legend>
          <label className="choice">
            <input type="radio" name="scope-choice" checked={allScopes} onChange={() => setAllScopes(true)} />
            All scopes <span className="muted">(including scopes added later)</span>
          </label>
          <label className="choice">
            <input type="radio" name="scope-choice" checked={!allScopes} onChange={() => setAllScopes(false)} />
            Only the scopes chosen here
          </label>
          {!allScopes && (
            <div className="scope-grid">
              {SCOPES.map((scope) => (
                <label key={scope} className="choice">
                  <input type="checkbox" name="scopes" value={scope} defaultChecked />
                  <code>{scope}</code>
                </label>
              ))}
            </div>
          )}
        </fieldset>
        {error && (
          <p role="alert" className="error">
            {error}
          </p>
        )}
        <DialogFooter onCancel={onClose}>
          <button type="submit" className="button primary" disabled={create.isPending}>
            {create.isPending ? "Creating…" : "Create key"}
          </button>
        </DialogFooter>
      </form>
    </Modal>
  );
}
