// main.tsx imports this module first, for its effect: modules run in import order, so the start-up requests
// (`/api/me`, `/api/config`) are made before React and the app's other modules are evaluated, and travel while
// they are. index.html preloads both (`<link rel="preload" as="fetch">`, sent as the page is parsed, before
// any script has loaded): these requests take the preloaded answers. (In the on-ramp's payment window, which
// closes at once, they are simply not used.)
import { startSession } from './startSession';

startSession();
