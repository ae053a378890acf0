"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useRouter } from "next/navigation";
import { Modal } from "@/app/_components/modal.tsx";
import { useTRPC } from "@/app/_components/trpc.ts";
import { useWorkspaceFields, useWorkspaceTags } from "@/app/_components/use-catalog.ts";
import { ContactForm } from "./contact-form.tsx";
import { QueryState } from "@/app/_components/query-state.tsx";

/**
 * Creates a contact through `contacts.upsert`, the rule of POST /contacts: a contact with the
 * same phone (or, without a phone, the same e-mail) is updated instead (D14). Opens its page.
 */
export function NewContactDialog({ workspace, onClose }: { workspace: string; onClose: () => void }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const router = useRouter();
  const tags = useWorkspaceTags();
  const fields = useWorkspaceFields();
  const upsert = useMutation(
    trpc.contacts.upsert.mutationOptions({
      onSuccess: async (contact) => {
        queryClient.setQueryData(trpc.contacts.get.queryKey({ id: contact.id }), contact);
        await queryClient.invalidateQueries(trpc.contacts.search.queryFilter());
        router.push(`/w/${encodeURIComponent(workspace)}/contacts/${encodeURIComponent(contact.id)}`);
      },
    }),
  );
  const ready = tags.data && fields.data;
  return (
    <Modal title="New contact" onClose={onClose}>
      <div className="stack">
        <p className="muted">
          Give a phone number or an e-mail address. A contact that already has this phone (or, without a phone, this e-mail) is updated
          instead.
        </p>
        {!ready && (
          <QueryState
            query={tags.isError ? tags : fields.isError ? fields : tags.isPending ? tags : fields}
            what="the workspace's tags and fields"
          />
        )}
        {ready && (
          <ContactForm
            contact={null}
            tags={tags.data}
            fields={fields.data}
            error={upsert.error}
            pending={upsert.isPending || upsert.isSuccess}
            submitLabel="Create contact"
            onSubmit={(changes) => upsert.mutate(changes)}
            onCancel={onClose}
          />
        )}
      </div>
    </Modal>
  );
}
