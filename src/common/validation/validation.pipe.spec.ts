import { flattenValidationErrors } from './validation.pipe';

describe('flattenValidationErrors', () => {
  it('names one problem per field, the type first, and nested fields by their full path', () => {
    const details = flattenValidationErrors([
      {
        property: 'name',
        constraints: {
          maxLength: 'name must be shorter than or equal to 100 characters',
          isString: 'name must be a string',
        },
        children: [],
      },
      {
        property: 'items',
        children: [
          {
            property: '0',
            children: [{ property: 'quantity', constraints: { isInt: 'quantity must be an integer' }, children: [] }],
          },
        ],
      },
    ]);
    expect(details).toEqual(['name must be a string', 'items.0.quantity must be an integer']);
  });
});
