import { Link } from "@/app/_components/link.tsx";
import type { ReactNode } from "react";
import { ModeSwitch } from "./mode-switch.tsx";
import { NavLinks } from "./nav-links.tsx";
import { SearchBox } from "./search-box.tsx";
import { SignOutButton } from "./sign-out-button.tsx";
import { TableLabels } from "./table-labels.tsx";
import { ThemeToggle } from "./theme-toggle.tsx";
import { WorkspaceSwitcher, type MyWorkspace } from "./workspace-switcher.tsx";

type Props = { workspace: string; workspaces: MyWorkspace[]; email: string; role: "admin" | "support"; children: ReactNode };

/** Header (workspace switcher, search, the test/live switch, user, theme, sign-out), left navigation (a menu on phones), and the page. */
export function AppShell({ workspace, workspaces, email, role, children }: Props) {
  return (
    <div className="shell">
      <a href="#main" className="skip-link">
        Skip to content
      </a>
      <header className="topbar">
        <Link href="/" className="brand">
          svc
        </Link>
        <WorkspaceSwitcher current={workspace} initial={workspaces} />
        <SearchBox workspace={workspace} />
        <div className="user">
          <ModeSwitch />
          <span className="muted email">{email}</span>
          <ThemeToggle />
          <SignOutButton />
        </div>
      </header>
      <nav className="sidebar" aria-label="Dashboard">
        <NavLinks workspace={workspace} role={role} />
      </nav>
      <main id="main" className="content">
        {children}
      </main>
      <TableLabels />
    </div>
  );
}
