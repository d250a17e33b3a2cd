/*
 * A Lingui extractor for the server messages' English (shared/server-messages-en/<area>.ts): plain
 * `'code': 'English text'` entries, written once for the server (which answers API callers in English
 * with them) and the console. `lingui extract` turns each into the entry Lingui's msg() macro would
 * have made of `msg({ context: code, message: text })`, so the `server-messages.po` catalogs keep
 * their shape (context the code, msgid the English) and client/lib/server-messages.ts finds them by
 * the same id. Registered in lingui.config.ts.
 */
import type { ExtractorType } from '@lingui/conf';
import { generateMessageId } from '@lingui/message-utils/generateMessageId';
import ts from 'typescript';

const FOLDER = /[\\/]shared[\\/]server-messages-en[\\/][^\\/]+\.ts$/;

export const serverMessagesExtractor: ExtractorType = {
  match: (filename) => FOLDER.test(filename),
  extract(filename, code, onMessageExtracted) {
    const file = ts.createSourceFile(filename, code, ts.ScriptTarget.Latest, true);
    const visit = (node: ts.Node) => {
      if (
        ts.isPropertyAssignment(node) &&
        ts.isStringLiteral(node.name) &&
        (ts.isStringLiteral(node.initializer) || ts.isNoSubstitutionTemplateLiteral(node.initializer))
      ) {
        const context = node.name.text;
        const message = node.initializer.text;
        const { line, character } = file.getLineAndCharacterOfPosition(node.getStart(file));
        onMessageExtracted({
          id: generateMessageId(message, context),
          message,
          context,
          origin: [filename, line + 1, character],
        });
        return;
      }
      // Anything else in an entry (a concatenation, a variable) would be lost to the catalog: say so.
      if (ts.isPropertyAssignment(node) && ts.isStringLiteral(node.name))
        throw new Error(`${filename}: ${node.name.text} must be one string literal`);
      ts.forEachChild(node, visit);
    };
    visit(file);
  },
};
