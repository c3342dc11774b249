// ESLint rule `reportdesk/no-untranslated-text` (issue 28): every word a person reads comes from a
// message catalogue (shared/i18n/catalogues/en.json), never from a literal in the code.
//  - JSX (the renderer): text between tags, and text in the attributes a person reads (title,
//    aria-label, placeholder, alt, label, …, and component props named like them: confirmLabel,
//    errorTitle, hint, description) — as a literal, a template, or either side of ?: / && / ||.
//  - The main process (option `main`): the labels, titles and bodies of menus, dialogs and
//    notifications — object properties with those names, and dialog.showErrorBox's arguments.
// Text without letters (—, ×, ‹, …, ?) is not words and passes; a message id passed to a
// function (words('reports.list.heading')) is an argument, not text, and passes too.

const LETTER = /\p{L}/u;

/** The attributes a person reads (hears, with a screen reader). */
const READ_ATTRIBUTES = new Set([
  'title',
  'aria-label',
  'aria-description',
  'aria-roledescription',
  'aria-valuetext',
  'placeholder',
  'alt',
  'label',
  'hint',
  'description',
]);
/** Component props that carry such text: confirmLabel, submitLabel, errorTitle, loadingLabel… */
const READ_PROP = /^[a-z][A-Za-z]*(Label|Title|Text|Hint|Description|Placeholder)$/;

/** What the main process shows: menu items, dialog options, notifications. */
const MAIN_PROPERTIES = new Set([
  'label',
  'title',
  'body',
  'message',
  'detail',
  'buttonLabel',
  'nameFieldLabel',
]);
const MAIN_DIALOG_CALLS = new Set(['showErrorBox', 'showMessageBox', 'showMessageBoxSync']);

function keyName(node) {
  if (node.type === 'Identifier') return node.name;
  if (node.type === 'Literal' && typeof node.value === 'string') return node.value;
  return null;
}

/** The parts of an expression that end up as text on screen: literals and templates with letters. */
function* textParts(node) {
  if (!node) return;
  switch (node.type) {
    case 'Literal':
      if (typeof node.value === 'string' && LETTER.test(node.value)) yield node;
      return;
    case 'TemplateLiteral':
      if (node.quasis.some((quasi) => LETTER.test(quasi.value.cooked ?? quasi.value.raw))) yield node;
      return;
    case 'ConditionalExpression':
      yield* textParts(node.consequent);
      yield* textParts(node.alternate);
      return;
    case 'LogicalExpression':
      yield* textParts(node.left);
      yield* textParts(node.right);
      return;
    case 'BinaryExpression':
      if (node.operator === '+') {
        yield* textParts(node.left);
        yield* textParts(node.right);
      }
      return;
    case 'TSAsExpression':
    case 'TSNonNullExpression':
      yield* textParts(node.expression);
      return;
    default:
      return;
  }
}

/** @type {import('eslint').Rule.RuleModule} */
export const noUntranslatedText = {
  meta: {
    type: 'problem',
    docs: { description: 'Text a person reads comes from the message catalogue, never from a literal.' },
    schema: [{ type: 'object', properties: { main: { type: 'boolean' } }, additionalProperties: false }],
    messages: {
      jsxText:
        'Text a person reads comes from the catalogue (shared/i18n/catalogues/en.json): use words(\'…\'), not "{{text}}".',
      attribute:
        'The {{name}} attribute is read by people: take its text from the catalogue with words(\'…\'), not "{{text}}".',
      main: 'What the main process shows ({{name}}) comes from the catalogue: use words(\'…\'), not "{{text}}".',
    },
  },
  create(context) {
    const main = context.options[0]?.main === true;
    const shown = (node) => context.sourceCode.getText(node).slice(0, 60);
    const report = (node, messageId, name) =>
      context.report({ node, messageId, data: { text: shown(node).replace(/\s+/g, ' ').trim(), name } });

    if (main) {
      return {
        Property(node) {
          const name = keyName(node.key);
          if (name === null) return;
          const isFilterName =
            name === 'name' &&
            node.parent.type === 'ObjectExpression' &&
            node.parent.properties.some(
              (other) => other.type === 'Property' && keyName(other.key) === 'extensions',
            );
          if (!MAIN_PROPERTIES.has(name) && !isFilterName) return;
          for (const part of textParts(node.value)) report(part, 'main', name);
        },
        CallExpression(node) {
          const callee = node.callee;
          const name = callee.type === 'MemberExpression' ? keyName(callee.property) : null;
          if (name === null || !MAIN_DIALOG_CALLS.has(name)) return;
          for (const argument of node.arguments)
            for (const part of textParts(argument)) report(part, 'main', name);
        },
      };
    }

    return {
      JSXText(node) {
        if (LETTER.test(node.value)) report(node, 'jsxText');
      },
      JSXExpressionContainer(node) {
        // A child of an element (an attribute's value is checked below, by its name).
        if (node.parent.type !== 'JSXElement' && node.parent.type !== 'JSXFragment') return;
        for (const part of textParts(node.expression)) report(part, 'jsxText');
      },
      JSXAttribute(node) {
        const name = node.name.type === 'JSXIdentifier' ? node.name.name : null;
        if (name === null || !(READ_ATTRIBUTES.has(name) || READ_PROP.test(name)) || !node.value) return;
        const value = node.value.type === 'JSXExpressionContainer' ? node.value.expression : node.value;
        for (const part of textParts(value)) report(part, 'attribute', name);
      },
    };
  },
};

export default { rules: { 'no-untranslated-text': noUntranslatedText } };
