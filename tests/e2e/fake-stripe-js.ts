// A stand-in for js.stripe.com, served by the browser's router in the Stripe.js browser tests.

/**
 * The part of Stripe.js the forms use: 4000 0000 0000 0002 is declined in the browser as Stripe's
 * test card is; 5555 5555 5555 4444 gives tok_mastercard, 4000 0000 0000 0341 a token Stripe's API
 * (faked with MSW) declines, any other number tok_visa.
 */
export const FAKE_STRIPE_JS = `
window.__tokenRequests = 0;
window.Stripe = function () {
  return {
    elements: function () {
      return {
        create: function (type) {
          var input = document.createElement("input");
          input.setAttribute("aria-label", type);
          return {
            mount: function (container) { container.appendChild(input); },
            destroy: function () { input.remove(); },
            focus: function () { input.focus(); },
            on: function () {},
            value: function () { return input.value; },
          };
        },
      };
    },
    createToken: function (element) {
      window.__tokenRequests += 1;
      var number = element.value().replace(/\\s/g, "");
      if (number === "4000000000000002") return Promise.resolve({ error: { message: "Your card was declined." } });
      if (number === "5555555555554444") return Promise.resolve({ token: { id: "tok_mastercard" } });
      if (number === "4000000000000341") return Promise.resolve({ token: { id: "tok_chargeDeclined" } });
      return Promise.resolve({ token: { id: "tok_visa" } });
    },
  };
};`;
