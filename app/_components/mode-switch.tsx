"use client";

import { createContext, use, useState, type ReactNode } from "react";
import { MODE_COOKIE_MAX_AGE, modeCookieName, type DashboardMode } from "@/app/_lib/dashboard-mode.ts";

type ModeState = { mode: DashboardMode; setMode: (mode: DashboardMode) => void };

const ModeContext = createContext<ModeState | null>(null);

/** The mode the pages show (app/_lib/dashboard-mode.ts): the server's reading of the user's cookie, then the switch's. */
export function ModeProvider({ userId, initial, children }: { userId: string; initial: DashboardMode; children: ReactNode }) {
  const [mode, setState] = useState(initial);
  const setMode = (next: DashboardMode) => {
    const secure = window.location.protocol === "https:" ? "; secure" : "";
    document.cookie = `${modeCookieName(userId)}=${next}; path=/; max-age=${MODE_COOKIE_MAX_AGE}; samesite=lax${secure}`;
    setState(next);
  };
  return <ModeContext value={{ mode, setMode }}>{children}</ModeContext>;
}

/** The mode whose messages Overview, Usage and Messages show. */
export function useMode(): DashboardMode {
  const state = use(ModeContext);
  if (!state) throw new Error("useMode outside ModeProvider");
  return state.mode;
}

/** The top bar's switch: on shows test data, off live data, on every page that counts or lists messages. */
export function ModeSwitch() {
  const state = use(ModeContext);
  if (!state) return null;
  const test = state.mode === "test";
  return (
    <button
      type="button"
      role="switch"
      aria-checked={test}
      className="mode-switch"
      data-mode={state.mode}
      onClick={() => state.setMode(test ? "live" : "test")}
    >
      <span className="mode-track" aria-hidden="true">
        <span className="mode-thumb" />
      </span>
      Test data
    </button>
  );
}
