/** How many digits a one-time code has: the server makes them, the sign-in and confirmation forms take them. */
export const OTP_CODE_LENGTH = 6;
