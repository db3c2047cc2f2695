import { Link } from "react-router";
import { Alert } from "~/forms/alert";
import { INVALID_ACCESS_TOKEN } from "../registration-texts";

/** Shown instead of a step's form when its access token is unknown, expired or already used. */
export function InvalidAccessToken() {
  return (
    <>
      <Alert title="Error!">
        <p>{INVALID_ACCESS_TOKEN}</p>
      </Alert>
      <p>
        Registration links expire after 24 hours and work for one registration. You can{" "}
        <Link to="/signup">start the registration again</Link>.
      </p>
    </>
  );
}
