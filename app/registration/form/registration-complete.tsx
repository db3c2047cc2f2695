import { Link } from "react-router";
import type { PageScripts } from "~/layout/no-javascript";
import { pageTitle } from "~/layout/page-title";
import { REGISTRATION_COMPLETE } from "../registration-texts";

// Step 6 for buyers and consultants (one module, two routes).

// Works without JavaScript: a first visit gets none (issue 20).
export const handle: PageScripts = { hydrate: false };

export function meta() {
  return [{ title: pageTitle("Registration Complete") }];
}

export default function RegistrationComplete() {
  return (
    <div className="narrow">
      <h1>Thank you</h1>
      <h2>Registration Complete</h2>
      <p>{REGISTRATION_COMPLETE}</p>
      <p>
        <Link to="/">Back to the home page</Link>
      </p>
    </div>
  );
}
