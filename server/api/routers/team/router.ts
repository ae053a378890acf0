import { router } from "../../trpc.ts";
import { addMember } from "./add-member.ts";
import { changeRole } from "./change-role.ts";
import { listMembers } from "./list-members.ts";
import { removeMember } from "./remove-member.ts";
import { resetPassword } from "./reset-password.ts";

// The Team page (dashboard only, admins only).
export const teamRouter = router({ list: listMembers, add: addMember, changeRole, remove: removeMember, resetPassword });
