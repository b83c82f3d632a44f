import type { Alias } from 'vite';

/**
 * The web app is written against React's API (its types are @types/react's) and runs on Preact's
 * compatibility layer (`preact/compat`): the same components, hooks, `lazy` and `Suspense`, in about 26 KiB
 * of code where React DOM is 190 KiB. React DOM was three quarters of the first visit's JavaScript, all of it
 * parsed and compiled before the sign-in form shows (docs/BENCHMARKS.md). The build, the dev server and the
 * web app's tests resolve React's modules to Preact's with these aliases (exact names: `react-dom/client` is
 * not `react-dom` plus a path).
 */
export const reactOnPreact: Alias[] = [
  { find: /^react$/, replacement: 'preact/compat' },
  { find: /^react-dom$/, replacement: 'preact/compat' },
  { find: /^react-dom\/client$/, replacement: 'preact/compat/client' },
  { find: /^react-dom\/server$/, replacement: 'preact/compat/server' },
  { find: /^react\/jsx-runtime$/, replacement: 'preact/jsx-runtime' },
  { find: /^react\/jsx-dev-runtime$/, replacement: 'preact/jsx-dev-runtime' },
];
