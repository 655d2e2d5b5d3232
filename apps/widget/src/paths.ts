/** Where the widget app serves the browser module. */
export const MODULE_PATH = '/widget/trainplan-widget.js';
