/**
 * The Python client's models as ops/generate/python-models.ts writes them from a schema: pydantic models whose JSON
 * names Python cannot use (or that would shadow BaseModel's attributes) are aliases, optional and nullable fields
 * Optional, lists typed and nested objects models of their own.
 */
import { expect } from 'chai';
import { ModelWriter } from '../../ops/generate/python-models.js';

const THING = {
  type: 'object',
  description: 'A thing',
  required: ['id', 'x-rate', 'class', 'legs'],
  properties: {
    id: { type: 'string', description: 'Its id' },
    'x-rate': { type: 'number' },
    class: { type: 'string', enum: ['a', 'b'] },
    json: { type: 'string' },
    mark: { type: ['number', 'null'] },
    legs: { type: 'array', items: { type: 'object', required: ['qty'], properties: { qty: { type: 'integer' } } } },
  },
};

describe('the Python client models (ops/generate/python-models.ts)', () => {
  const writer = new ModelWriter({ paths: {}, components: { schemas: { Thing: THING } } });
  writer.model('Thing', THING);
  const text = writer.text();

  it('writes a pydantic model per object schema, nested ones first', () => {
    expect(text).to.match(/^class ThingLegsItem\(Model\):\n {4}qty: int\n/);
    expect(text).to.include('class Thing(Model):\n    """A thing"""\n\n    id: str\n    """Its id"""\n');
    expect(text).to.include('    legs: List[ThingLegsItem]\n');
  });

  it('aliases a JSON name that is not a Python name or that BaseModel has', () => {
    expect(text).to.include('    x_rate: float = Field(alias="x-rate")\n');
    expect(text).to.include('    class_: Literal["a", "b"] = Field(alias="class")\n');
    expect(text).to.include('    json_: Optional[str] = Field(default=None, alias="json")\n');
  });

  it('makes an optional or nullable field Optional with None by default', () => {
    expect(text).to.include('    mark: Optional[float] = None\n');
  });
});
