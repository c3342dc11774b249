/**
 * Rewriting a compiled ICU message (FormatJS's syntax tree) piece by piece: its text and its
 * arguments, inside plurals, selects and tags as well. The pseudo-languages change its text
 * (./pseudo.ts); right-to-left languages isolate its arguments (./bidi.ts).
 */
import { TYPE, type MessageFormatElement } from '@formatjs/icu-messageformat-parser';

export type CompiledMessages = Record<string, MessageFormatElement[]>;

/** What becomes of each leaf of a message: its text and its plain `{name}` arguments. */
export interface LeafRewrite {
  text?: (text: string) => string;
  argument?: (element: MessageFormatElement) => MessageFormatElement[];
}

/** The message with each piece of text and each plain argument rewritten; the rest kept as it is. */
export function rewriteMessage(
  elements: readonly MessageFormatElement[],
  rewrite: LeafRewrite,
): MessageFormatElement[] {
  return elements.flatMap((element): MessageFormatElement[] => {
    switch (element.type) {
      case TYPE.literal:
        return rewrite.text ? [{ ...element, value: rewrite.text(element.value) }] : [element];
      case TYPE.argument:
        return rewrite.argument ? rewrite.argument(element) : [element];
      case TYPE.plural:
      case TYPE.select:
        return [
          {
            ...element,
            options: Object.fromEntries(
              Object.entries(element.options).map(([key, option]) => [
                key,
                { ...option, value: rewriteMessage(option.value, rewrite) },
              ]),
            ),
          },
        ];
      case TYPE.tag:
        return [{ ...element, children: rewriteMessage(element.children, rewrite) }];
      default:
        return [element];
    }
  });
}

/** Every message of a catalogue rewritten. */
export function rewriteCatalogue(messages: CompiledMessages, rewrite: LeafRewrite): CompiledMessages {
  return Object.fromEntries(
    Object.entries(messages).map(([id, message]) => [id, rewriteMessage(message, rewrite)]),
  );
}
