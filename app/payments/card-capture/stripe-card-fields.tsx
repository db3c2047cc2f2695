import { type ReactNode, type RefObject, useEffect, useRef, useState } from "react";
import { CARD_CHECK_FAILED } from "./card-capture";

// Stripe.js card fields (Stripe configured, JavaScript on). The card number, expiry and CVC live in
// Stripe's frames: they never reach our server, which gets only the token. When Stripe.js cannot load
// (blocked by a proxy), the form goes on without a token and the server sends the applicant to
// Stripe Checkout instead, as it does without JavaScript.

const STRIPE_JS = "https://js.stripe.com/v3/";

type StripeElement = {
  mount(target: HTMLElement): void;
  destroy(): void;
  focus(): void;
  on(event: "change", handler: (event: { error?: { message: string } }) => void): void;
};
type StripeInstance = {
  elements(): { create(type: "cardNumber" | "cardExpiry" | "cardCvc", options?: object): StripeElement };
  createToken(element: StripeElement): Promise<{ token?: { id: string }; error?: { message?: string } }>;
};
type StripeConstructor = (publishableKey: string) => StripeInstance;

/** What the form needs of the card fields at submit time. */
export type StripeCardHandle = {
  createToken(): Promise<{ token: string } | { error: string }>;
  focusCardNumber(): void;
};

let stripeScript: Promise<StripeConstructor> | undefined;

function loadStripeJs(): Promise<StripeConstructor> {
  const existing = (window as { Stripe?: StripeConstructor }).Stripe;
  if (existing) return Promise.resolve(existing);
  stripeScript ??= new Promise<StripeConstructor>((resolve, reject) => {
    const script = document.createElement("script");
    script.src = STRIPE_JS;
    script.async = true;
    script.onload = () => {
      const loaded = (window as { Stripe?: StripeConstructor }).Stripe;
      if (loaded) resolve(loaded);
      else reject(new Error("Stripe.js did not define Stripe"));
    };
    script.onerror = () => {
      stripeScript = undefined;
      reject(new Error("Stripe.js could not be loaded"));
    };
    document.head.append(script);
  });
  return stripeScript;
}

const FIELDS = [
  { type: "cardNumber", id: "stripe-card-number", label: "Card Number" },
  { type: "cardExpiry", id: "stripe-card-expiry", label: "Expiry Date (MM / YY)" },
  { type: "cardCvc", id: "stripe-card-cvc", label: "CVC" },
] as const;

export function StripeCardFields({
  publishableKey,
  handleRef,
  errorId,
  fallback,
}: {
  publishableKey: string;
  /** Set once the fields are mounted; stays null when Stripe.js could not load. */
  handleRef: RefObject<StripeCardHandle | null>;
  /** The payment area's error message, which describes the card number. */
  errorId?: string;
  /** Shown until the fields are ready, and instead of them when Stripe.js cannot load. */
  fallback: ReactNode;
}) {
  const containers = useRef<Record<string, HTMLDivElement | null>>({});
  const [state, setState] = useState<"loading" | "ready" | "failed">("loading");
  const [fieldError, setFieldError] = useState<string | undefined>();

  useEffect(() => {
    let cancelled = false;
    const mounted: StripeElement[] = [];
    loadStripeJs()
      .then((Stripe) => {
        if (cancelled) return;
        const stripe = Stripe(publishableKey);
        const elements = stripe.elements();
        const created = Object.fromEntries(
          FIELDS.map((field) => {
            const element = elements.create(field.type, field.type === "cardNumber" ? { showIcon: true } : {});
            const container = containers.current[field.id];
            if (container) element.mount(container);
            element.on("change", (event) => setFieldError(event.error?.message));
            mounted.push(element);
            return [field.type, element];
          }),
        ) as Record<(typeof FIELDS)[number]["type"], StripeElement>;
        handleRef.current = {
          async createToken() {
            const result = await stripe.createToken(created.cardNumber);
            if (result.token) return { token: result.token.id };
            return { error: result.error?.message ?? CARD_CHECK_FAILED };
          },
          focusCardNumber: () => created.cardNumber.focus(),
        };
        setState("ready");
      })
      .catch((error: unknown) => {
        console.warn(error);
        if (!cancelled) setState("failed");
      });
    return () => {
      cancelled = true;
      handleRef.current = null;
      for (const element of mounted) element.destroy();
    };
  }, [publishableKey, handleRef]);

  return (
    <div className="stripe-card">
      {state !== "ready" ? fallback : null}
      <div hidden={state !== "ready"}>
        {FIELDS.map((field) => (
          <div className="field" key={field.id}>
            {/* Stripe's frames carry their own accessible names inside; this is the visible label. */}
            <span className="field__label" id={`${field.id}-label`}>
              {field.label}
            </span>
            <div
              className="input stripe-card__frame"
              id={field.id}
              aria-describedby={field.type === "cardNumber" ? errorId : undefined}
              ref={(element) => {
                containers.current[field.id] = element;
              }}
            />
          </div>
        ))}
        {fieldError ? (
          <p className="field__error" role="alert">
            <span className="visually-hidden">Error:</span> {fieldError}
          </p>
        ) : null}
      </div>
    </div>
  );
}
