// User-facing texts of the account screens (spec section 8), shared by pages, actions and the API.
export const INVALID_SIGN_IN = "Invalid username or password.";
export const LINK_PROBLEM = "Please check the link and try again.";
export const SET_PASSWORD_PROBLEM = "Problem setting your password, please try again.";
export const RESET_SENT = "Password Reset Request Sent!";
export const RESET_PROBLEM = "Problem sending password reset email, please check your email and try again.";
