/**
 * The listing model (DESIGN.md "Listing", document 2.11–2.12): shapes shared by every listings use case.
 * View types are the v2 JSON shapes exactly (camelCase, int64 as strings); the v1 shape (2.1) is rendered
 * from them.
 */

/** The value kinds of an attribute value (2.11); exactly one is set on a stored value. */
export interface AttributeValueKinds {
  textValue?: string;
  numericValue?: number;
  numericWithUnitsValue?: { numeric: number; units: string };
  multiTextValue?: { values: string[] };
  /** amount is a decimal string (never a float). */
  moneyValue?: { amount: string; currencyCode: string };
  multiObjectValue?: { items: { properties: Record<string, AttributeValueKinds> }[] };
}

export const VALUE_KINDS = [
  'textValue',
  'numericValue',
  'numericWithUnitsValue',
  'multiTextValue',
  'moneyValue',
  'multiObjectValue',
] as const satisfies readonly (keyof AttributeValueKinds)[];

/** An attribute value as a seller, the ingestion or the admin API sends it: id plus one value kind. */
export interface AttributeInput extends AttributeValueKinds {
  id: string;
}

/** An attribute value as stored and served (2.11). */
export interface AttributeValue extends AttributeValueKinds {
  id: string;
  versionId: string;
  updatedAt: string;
  /** When this version was last named by a submission; null (absent on output) before that. */
  submittedAt: string | null;
}

/** Attribute groups. 'product_data' exists on the listing and on each variant; the others on variants. */
export const ATTRIBUTE_GROUPS = ['product_data', 'identifiers', 'logistics', 'pricing'] as const;
export type AttributeGroupName = (typeof ATTRIBUTE_GROUPS)[number];

/** listing_attributes.owner_type */
export type AttributeOwnerType = 'L' | 'V';

export interface SaleInput {
  strikeThroughPrice: number;
  salePrice: number;
  startAt: string | null;
  endAt: string | null;
}

/** A scheduled sale as served: an unset startAt/endAt is absent (an unset proto3 Timestamp), never null. */
export interface SaleView {
  strikeThroughPrice: number;
  salePrice: number;
  startAt: string | null;
  endAt: string | null;
}

export interface VariantInput {
  sku: string;
  channelId?: string;
  settings?: Record<string, string>;
  productData?: { enabled?: boolean; attributes?: AttributeInput[] };
  identifiers?: { attributes?: AttributeInput[] };
  logistics?: { attributes?: AttributeInput[] };
  pricing?: { attributes?: AttributeInput[]; sales?: SaleInput[] };
  inventory?: { enabled?: boolean };
}

export interface ListingProductDataInput {
  enabled?: boolean;
  categoryId?: string;
  productTypeId?: string;
  pivotAttributes?: string[];
  swatchImageAttributeId?: string[];
  standaloneVariants?: boolean;
  baseListingSku?: string;
  retireBaseParent?: boolean;
  attributes?: AttributeInput[];
}

export interface ListingInput {
  /** The group SKU. */
  sku: string;
  productData?: ListingProductDataInput;
  variants: VariantInput[];
  /** The channel's own id of the listing, when known (ingestion). */
  channelListingId?: string | null;
}

/** Attribute group (2.11) as served. */
export interface AttributeGroupView {
  enabled: boolean;
  attributes: AttributeValue[];
  updatedAt: string;
}

export interface VariantInventoryView {
  enabled: boolean;
  totalQuantity: string;
  merchantFulfillableQuantity: string;
  merchantFulfillableWarehouseQuantities: { warehouseId: string; quantity: string }[];
  storefrontFulfillableQuantity: string;
  updatedAt: string;
  /** Never set: the service is the only source of a variant's quantities (null, an unset Timestamp). */
  updatedExternallyAt: null;
}

export interface VariantView {
  sku: string;
  channelId: string;
  settings: Record<string, string>;
  inventory: VariantInventoryView;
  identifiers: AttributeGroupView;
  productData: AttributeGroupView;
  logistics: AttributeGroupView;
  pricing: AttributeGroupView & { sales: SaleView[] };
}

export interface ListingView {
  id: string;
  sku: string;
  productData: {
    enabled: boolean;
    categoryId: string;
    productTypeId: string;
    pivotAttributes: string[];
    attributes: AttributeValue[];
    updatedAt: string;
    swatchImageAttributeId: string[];
    /** Seller choices for how the channel lists the variants (resolutions §7); defaults false / "" / false. */
    standaloneVariants: boolean;
    baseListingSku: string;
    retireBaseParent: boolean;
  };
  variants: VariantView[];
  createdAt: string;
  updatedAt: string;
}
