/**
 * What the phone fields take from the phone library (libphonenumber-js and its metadata, about 35 KiB
 * brotli): formatting as people type, the example number of the placeholder, and the sign-in form's check.
 * Its own chunk, loaded once the sign-in form shows (loadPhoneLibrary.ts), so the form is usable before it.
 */
export { examplePhone, formatPhoneInput } from '@dial/core';
export { prepareOtpRequest } from './prepareOtpRequest';
