/** Entry of the page bundle (esbuild, see scripts/build-page.mjs). */
import { render } from 'preact';
import { App } from './app.js';
import './styles.css';

render(<App />, document.getElementById('app')!);
