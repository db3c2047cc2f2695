import { apiErrors } from "./api-responses.server";

// Unknown /api paths answer JSON, not the HTML 404 page.
export const loader = () => apiErrors(404, { form: "Not found." });
export const action = loader;
