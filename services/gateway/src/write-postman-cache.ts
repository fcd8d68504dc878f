import { openApiDocumentText } from '@pwa/contracts';
import { writePostmanCollectionCache } from './http/postman-collection-cache';

/** The build's last step (package.json "build"), silent: the Postman collection of the document, made once. */
writePostmanCollectionCache(openApiDocumentText());
