import { Form, Link } from "react-router";
import { SubmitButton } from "~/forms/submit-button";
import { TextInput, type TextInputProps } from "~/forms/text-input";

type FieldState = Pick<TextInputProps, "id" | "name" | "errors" | "errorId"> & { defaultValue?: string };

/** The fields, button and links of the sign-in form, shared by Home's plain form and /login's. */
export function SignInFields({ email, password }: { email: FieldState; password: FieldState }) {
  return (
    <>
      <TextInput
        {...email}
        label="Email"
        type="email"
        inputProps={{ autoComplete: "username", spellCheck: false, required: true, defaultValue: email.defaultValue }}
      />
      <TextInput
        {...password}
        label="Password"
        type="password"
        inputProps={{ autoComplete: "current-password", required: true }}
      />
      <div className="button-row">
        <SubmitButton>Sign in</SubmitButton>
        <Link to="/forgot-password">Forgot your password?</Link>
      </div>
      <p>
        New to the marketplace? <Link to="/signup">Create an account</Link>
      </p>
    </>
  );
}

/**
 * Home's sign-in form: a plain form posting to /login, whose action validates it and answers any
 * mistake on /login. No form library, so a first visit to Home stays small.
 */
export function HomeSignInForm({ id }: { id: string }) {
  return (
    <Form method="post" action="/login" id={id} className="stack" noValidate>
      <SignInFields
        email={{ id: `${id}-email`, name: "email" }}
        password={{ id: `${id}-password`, name: "password" }}
      />
    </Form>
  );
}
