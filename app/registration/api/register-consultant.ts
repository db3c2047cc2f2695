import { appServicesContext } from "~/server/app-context";
import type { Route } from "./+types/register-consultant";
import { handleRegistration } from "./register-buyer-or-consultant.server";

/** POST /api/registration/register_consultant {consultantRegistrationData} → 201. */
export const action = ({ request, context }: Route.ActionArgs) =>
  handleRegistration(request, context.get(appServicesContext), 4);
