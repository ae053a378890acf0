"use client";

import { signOut } from "next-auth/react";
import { useRouter } from "next/navigation";
import { useState } from "react";

export function SignOutButton() {
  const router = useRouter();
  const [pending, setPending] = useState(false);
  async function onClick() {
    setPending(true);
    await signOut({ redirect: false });
    router.replace("/sign-in");
    router.refresh();
  }
  return (
    <button type="button" className="button" onClick={onClick} disabled={pending}>
      Sign out
    </button>
  );
}
