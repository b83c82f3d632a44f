// The reference of the sign-in figures (bench/browser.mjs): the smallest React 19 page, rendered once.
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';

createRoot(document.getElementById('root')).render(
  <StrictMode>
    <h1 id="hello">Hello</h1>
  </StrictMode>,
);
