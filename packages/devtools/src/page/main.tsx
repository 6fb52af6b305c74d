/** Entry of the page bundle (esbuild, see scripts/build-page.mjs). */
import { render } from 'preact';
import { App } from './app.js';
import './styles.css';
import './trace-view.css';
import './detail-graph.css';

render(<App />, document.getElementById('app')!);
