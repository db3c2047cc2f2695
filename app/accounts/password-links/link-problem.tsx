import { Link } from "react-router";
import { Alert } from "~/forms/alert";
import { LINK_PROBLEM, SET_PASSWORD_PROBLEM } from "../account-texts";

/**
 * Shown instead of the form when a reset, set-password or setup link is bad, used or expired; after a
 * submission that found the link spent, the set-password failure message comes first.
 */
export function LinkProblem({ afterSubmission = false }: { afterSubmission?: boolean }) {
  return (
    <>
      <Alert title="Error!">
        {afterSubmission ? <p>{SET_PASSWORD_PROBLEM}</p> : null}
        <p>{LINK_PROBLEM}</p>
      </Alert>
      <p>
        Links work once and expire. You can <Link to="/forgot-password">ask for a new password reset link</Link>.
      </p>
    </>
  );
}

export function SignInLink() {
  return (
    <p>
      <Link to="/login" className="button">
        Go to sign in
      </Link>
    </p>
  );
}
