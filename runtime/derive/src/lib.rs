//! `#[derive(Canonical)]` for `fixstep-runtime`'s `hash::Canonical` trait.
//!
//! The derived encoding writes a struct's fields in declaration order, and an enum's variant
//! index (a `u32`, in declaration order) followed by that variant's fields, with nothing
//! between them. Every type parameter gets a `Canonical` bound. Reordering fields or variants
//! therefore changes the state hash, which is what a golden test should notice.
//!
//! `#[canonical(skip)]` on a field leaves it out of the encoding: for what is not content,
//! such as the path a level was read from.
//!
//! `#[canonical(pod)]` marks plain old data, whose canonical bytes are its memory (see
//! `hash::CanonicalPod`): a `#[repr(C)]` struct without padding whose fields are all plain old
//! data, or a fieldless enum with an integer `#[repr]`, which is then written as its
//! discriminant at that width (its memory) instead of as a `u32` index. The type must also
//! derive bytemuck's `NoUninit`, which checks the layout; the derive checks the fields.
//!
//! ```
//! use fixstep_runtime::Canonical;
//! use fixstep_runtime::hash::canonical_hash;
//!
//! #[derive(Canonical)]
//! struct Puck {
//!     x: i32,
//!     y: i32,
//!     /// A name for people, not a part of the game.
//!     #[canonical(skip)]
//!     label: String,
//! }
//!
//! let a = Puck { x: 1, y: 2, label: "left".to_owned() };
//! let b = Puck { x: 1, y: 2, label: "right".to_owned() };
//! assert_eq!(canonical_hash(&a), canonical_hash(&b), "the label is not hashed");
//! assert_ne!(canonical_hash(&a), canonical_hash(&Puck { x: 2, y: 1, ..b }), "fields in order");
//! ```

use proc_macro::TokenStream;
use proc_macro2::TokenStream as Tokens;
use quote::{format_ident, quote};
use syn::{
    Attribute, Data, DeriveInput, Fields, Ident, Index, Type, parse_macro_input, parse_quote,
};

/// Derives `fixstep_runtime::hash::Canonical`.
#[proc_macro_derive(Canonical, attributes(canonical))]
pub fn derive_canonical(input: TokenStream) -> TokenStream {
    let input = parse_macro_input!(input as DeriveInput);
    match derive(input) {
        Ok(tokens) => tokens.into(),
        Err(error) => error.to_compile_error().into(),
    }
}

fn derive(mut input: DeriveInput) -> syn::Result<Tokens> {
    let pod = has_option(&input.attrs, "pod")?;
    let name = input.ident.clone();
    let bound: syn::TypeParamBound = if pod {
        parse_quote!(::fixstep_runtime::hash::CanonicalPod)
    } else {
        parse_quote!(::fixstep_runtime::hash::Canonical)
    };
    for param in input.generics.type_params_mut() {
        param.bounds.push(bound.clone());
    }
    let mut field_types: Vec<Type> = Vec::new();
    let body = match &input.data {
        Data::Struct(data) => {
            field_types.extend(data.fields.iter().map(|f| f.ty.clone()));
            let (pattern, writes) = destructure(&data.fields)?;
            if pod && data.fields.iter().any(|f| has_option(&f.attrs, "skip").unwrap_or(false)) {
                return Err(syn::Error::new_spanned(
                    &input.ident,
                    "plain old data is hashed whole: no field of it can be skipped",
                ));
            }
            let from_memory = if pod {
                // One copy of the whole struct instead of a write per field.
                quote! {
                    if out.in_place()
                        && let ::core::option::Option::Some(memory) =
                            ::fixstep_runtime::hash::pod_memory(::core::slice::from_ref(self))
                    {
                        out.write_raw(memory);
                        return;
                    }
                }
            } else {
                quote! {}
            };
            quote! { #from_memory let Self #pattern = self; #writes }
        }
        Data::Enum(data) if pod => {
            let repr = int_repr(&input.attrs).ok_or_else(|| {
                syn::Error::new_spanned(
                    &input.ident,
                    "#[canonical(pod)] on an enum needs an integer #[repr], such as #[repr(u8)]",
                )
            })?;
            let arms = data
                .variants
                .iter()
                .map(|variant| {
                    if !matches!(variant.fields, Fields::Unit) {
                        return Err(syn::Error::new_spanned(
                            variant,
                            "#[canonical(pod)] on an enum needs variants without fields",
                        ));
                    }
                    let ident = &variant.ident;
                    Ok(quote! {
                        Self::#ident => ::fixstep_runtime::hash::Canonical::write_canonical(
                            &(Self::#ident as #repr),
                            out,
                        ),
                    })
                })
                .collect::<syn::Result<Vec<_>>>()?;
            quote! { match self { #(#arms)* } }
        }
        Data::Enum(data) => {
            let arms = data
                .variants
                .iter()
                .zip(0u32..)
                .map(|(variant, index)| {
                    let ident = &variant.ident;
                    let (pattern, writes) = destructure(&variant.fields)?;
                    Ok(quote! {
                        Self::#ident #pattern => {
                            out.write_u32(#index);
                            #writes
                        }
                    })
                })
                .collect::<syn::Result<Vec<_>>>()?;
            quote! { match self { #(#arms)* } }
        }
        Data::Union(_) => {
            return Err(syn::Error::new_spanned(&input.ident, "a union has no canonical encoding"));
        }
    };
    let (impl_generics, type_generics, where_clause) = input.generics.split_for_impl();
    let (memory_fn, pod_impl) = if pod {
        let checks = field_types.iter().map(|ty| quote! { field::<#ty>(); });
        (
            quote! {
                #[inline]
                fn memory_of(items: &[Self]) -> ::core::option::Option<&[u8]> {
                    ::fixstep_runtime::hash::pod_memory(items)
                }
            },
            quote! {
                impl #impl_generics ::fixstep_runtime::hash::CanonicalPod for #name #type_generics
                    #where_clause {}
                // Every field is plain old data whose canonical bytes are its memory, so the
                // fields written in order are the struct's memory.
                const _: fn() = || {
                    fn field<T: ?::core::marker::Sized + ::fixstep_runtime::hash::CanonicalPod>() {}
                    #(#checks)*
                };
            },
        )
    } else {
        (Tokens::new(), Tokens::new())
    };
    Ok(quote! {
        impl #impl_generics ::fixstep_runtime::hash::Canonical for #name #type_generics #where_clause {
            #[inline]
            fn write_canonical(&self, out: &mut ::fixstep_runtime::hash::CanonicalBytes) {
                // A unit struct or enum writes nothing of its own.
                let _ = &out;
                #body
            }
            #memory_fn
        }
        #pod_impl
    })
}

/// Whether the attributes hold `#[canonical(option)]` (`pod` on a type, `skip` on a field).
fn has_option(attrs: &[Attribute], option: &str) -> syn::Result<bool> {
    let mut found = false;
    for attr in attrs.iter().filter(|a| a.path().is_ident("canonical")) {
        attr.parse_nested_meta(|meta| {
            if meta.path.is_ident("pod") || meta.path.is_ident("skip") {
                found |= meta.path.is_ident(option);
                Ok(())
            } else {
                Err(meta.error("canonical options are `pod` (on a type) and `skip` (on a field)"))
            }
        })?;
    }
    Ok(found)
}

/// The integer type of a `#[repr(u8)]` (or other integer) attribute.
fn int_repr(attrs: &[Attribute]) -> Option<Ident> {
    const INTEGERS: [&str; 10] =
        ["u8", "u16", "u32", "u64", "u128", "i8", "i16", "i32", "i64", "i128"];
    let mut found = None;
    for attr in attrs.iter().filter(|a| a.path().is_ident("repr")) {
        let _ = attr.parse_nested_meta(|meta| {
            if let Some(ident) = meta.path.get_ident()
                && INTEGERS.contains(&ident.to_string().as_str())
            {
                found = Some(ident.clone());
            }
            Ok(())
        });
    }
    found
}

/// A pattern binding every field of `fields` that is not skipped by reference, and the writes
/// of those bindings in declaration order.
fn destructure(fields: &Fields) -> syn::Result<(Tokens, Tokens)> {
    let mut kept = Vec::new();
    for (i, field) in fields.iter().enumerate() {
        if !has_option(&field.attrs, "skip")? {
            kept.push((i, field));
        }
    }
    Ok(match fields {
        Fields::Named(_) => {
            let idents: Vec<_> = kept.iter().filter_map(|(_, f)| f.ident.clone()).collect();
            (
                quote! { { #(#idents,)* .. } },
                quote! { #( ::fixstep_runtime::hash::Canonical::write_canonical(#idents, out); )* },
            )
        }
        Fields::Unnamed(_) => {
            let indices = kept.iter().map(|(i, _)| Index::from(*i));
            let bindings: Vec<_> = kept.iter().map(|(i, _)| format_ident!("field_{}", i)).collect();
            (
                quote! { { #(#indices: #bindings,)* .. } },
                quote! { #( ::fixstep_runtime::hash::Canonical::write_canonical(#bindings, out); )* },
            )
        }
        Fields::Unit => (quote! {}, quote! {}),
    })
}
