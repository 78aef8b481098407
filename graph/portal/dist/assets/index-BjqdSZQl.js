var ye,w,jt,Y,lt,Ct,At,Oe,je,ge,Dt,Ye,ze,Be,Rt,De={},Re=[],nn=/acit|ex(?:s|g|n|p|$)|rph|grid|ows|mnc|ntw|ine[ch]|zoo|^ord|itera/i,ve=Array.isArray;function W(t,e){for(var r in e)t[r]=e[r];return t}function Xe(t){t&&t.parentNode&&t.parentNode.removeChild(t)}function ie(t,e,r){var i,a,o,s={};for(o in e)o=="key"?i=e[o]:o=="ref"?a=e[o]:s[o]=e[o];if(arguments.length>2&&(s.children=arguments.length>3?ye.call(arguments,2):r),typeof t=="function"&&t.defaultProps!=null)for(o in t.defaultProps)s[o]===void 0&&(s[o]=t.defaultProps[o]);return _e(t,s,i,a,null)}function _e(t,e,r,i,a){var o={type:t,props:e,key:r,ref:i,__k:null,__:null,__b:0,__e:null,__c:null,constructor:void 0,__v:a??++jt,__i:-1,__u:0};return a==null&&w.vnode!=null&&w.vnode(o),o}function z(t){return t.children}function Ce(t,e){this.props=t,this.context=e}function oe(t,e){if(e==null)return t.__?oe(t.__,t.__i+1):null;for(var r;e<t.__k.length;e++)if((r=t.__k[e])!=null&&r.__e!=null)return r.__e;return typeof t.type=="function"?oe(t):null}function rn(t){if(t.__P&&t.__d){var e=t.__v,r=e.__e,i=[],a=[],o=W({},e);o.__v=e.__v+1,w.vnode&&w.vnode(o),Ze(t.__P,o,e,t.__n,t.__P.namespaceURI,32&e.__u?[r]:null,i,r??oe(e),!!(32&e.__u),a),o.__v=e.__v,o.__.__k[o.__i]=o,qt(i,o,a),e.__e=e.__=null,o.__e!=r&&Pt(o)}}function Pt(t){if((t=t.__)!=null&&t.__c!=null)return t.__e=t.__c.base=null,t.__k.some(function(e){if(e!=null&&e.__e!=null)return t.__e=t.__c.base=e.__e}),Pt(t)}function Fe(t){(!t.__d&&(t.__d=!0)&&Y.push(t)&&!Pe.__r++||lt!=w.debounceRendering)&&((lt=w.debounceRendering)||Ct)(Pe)}function Pe(){try{for(var t,e=1;Y.length;)Y.length>e&&Y.sort(At),t=Y.shift(),e=Y.length,rn(t)}finally{Y.length=Pe.__r=0}}function Nt(t,e,r,i,a,o,s,d,u,l,f){var p,c,h,g,b,y,$=i&&i.__k||Re,v=e.length;for(u=on(r,e,$,u,v),p=0;p<v;p++)(h=r.__k[p])!=null&&(c=h.__i!=-1&&$[h.__i]||De,h.__i=p,y=Ze(t,h,c,a,o,s,d,u,l,f),g=h.__e,h.ref&&c.ref!=h.ref&&(c.ref&&et(c.ref,null,h),f.push(h.ref,h.__c||g,h)),b==null&&g!=null&&(b=g),4&h.__u?(u=Tt(h,u,t),c.__e&&(c.__e=null)):typeof h.type=="function"&&y!==void 0?u=y:g&&(u=g.nextSibling),h.__u&=-7);return r.__e=b,u}function on(t,e,r,i,a){var o,s,d,u,l,f=r.length,p=f,c=0;for(t.__k=new Array(a),o=0;o<a;o++)(s=e[o])!=null&&typeof s!="boolean"&&typeof s!="function"?(typeof s=="string"||typeof s=="number"||typeof s=="bigint"||s.constructor==String?s=t.__k[o]=_e(null,s,null,null,null):ve(s)?s=t.__k[o]=_e(z,{children:s},null,null,null):s.constructor===void 0&&s.__b>0?s=t.__k[o]=_e(s.type,s.props,s.key,s.ref?s.ref:null,s.__v):t.__k[o]=s,u=o+c,s.__=t,s.__b=t.__b+1,d=null,(l=s.__i=an(s,r,u,p))!=-1&&(p--,(d=r[l])&&(d.__u|=2)),d==null||d.__v==null?(l==-1&&(a>f?c--:a<f&&c++),typeof s.type!="function"&&(s.__u|=4)):l!=u&&(l==u-1?c--:l==u+1?c++:(l>u?c--:c++,s.__u|=4))):t.__k[o]=null;if(p)for(o=0;o<f;o++)(d=r[o])!=null&&(2&d.__u)==0&&(d.__e==i&&(i=oe(d)),Ut(d,d));return i}function Tt(t,e,r){var i,a;if(typeof t.type=="function"){for(i=t.__k,a=0;i&&a<i.length;a++)i[a]&&(i[a].__=t,e=Tt(i[a],e,r));return e}t.__e!=e&&(e&&t.type&&!e.parentNode&&(e=oe(t)),e=r.insertBefore(t.__e,e||null));do e=e&&e.nextSibling;while(e!=null&&e.nodeType==8);return e}function xt(t,e){return e=e||[],t==null||typeof t=="boolean"||(ve(t)?t.some(function(r){xt(r,e)}):e.push(t)),e}function an(t,e,r,i){var a,o,s,d=t.key,u=t.type,l=e[r],f=l!=null&&(2&l.__u)==0;if(l===null&&d==null||f&&d==l.key&&u==l.type)return r;if(i>(f?1:0)){for(a=r-1,o=r+1;a>=0||o<e.length;)if((l=e[s=a>=0?a--:o++])!=null&&(2&l.__u)==0&&d==l.key&&u==l.type)return s}return-1}function dt(t,e,r){e[0]=="-"?t.setProperty(e,r??""):t[e]=r==null?"":typeof r!="number"||nn.test(e)?r:r+"px"}function $e(t,e,r,i,a){var o,s;e:if(e=="style")if(typeof r=="string")t.style.cssText=r;else{if(typeof i=="string"&&(t.style.cssText=i=""),i)for(e in i)r&&e in r||dt(t.style,e,"");if(r)for(e in r)i&&r[e]==i[e]||dt(t.style,e,r[e])}else if(e[0]=="o"&&e[1]=="n")o=e!=(e=e.replace(Dt,"$1")),s=e.toLowerCase(),e=s in t||e=="onFocusOut"||e=="onFocusIn"?s.slice(2):e.slice(2),t.l||(t.l={}),t.l[e+o]=r,r?i?r[ge]=i[ge]:(r[ge]=Ye,t.addEventListener(e,o?Be:ze,o)):t.removeEventListener(e,o?Be:ze,o);else{if(a=="http://www.w3.org/2000/svg")e=e.replace(/xlink(H|:h)/,"h").replace(/sName$/,"s");else if(e!="width"&&e!="height"&&e!="href"&&e!="list"&&e!="form"&&e!="tabIndex"&&e!="download"&&e!="rowSpan"&&e!="colSpan"&&e!="role"&&e!="popover"&&e in t)try{t[e]=r??"";break e}catch{}typeof r=="function"||(r==null||r===!1&&e[4]!="-"?t.removeAttribute(e):t.setAttribute(e,e=="popover"&&r==1?"":r))}}function ut(t){return function(e){if(this.l){var r=this.l[e.type+t];if(e[je]==null)e[je]=Ye++;else if(e[je]<r[ge])return;return r(w.event?w.event(e):e)}}}function Ze(t,e,r,i,a,o,s,d,u,l){var f,p,c,h,g,b,y,$,v,_,E,O,M,re,G,S,N=e.type;if(e.constructor!==void 0)return null;128&r.__u&&(u=!!(32&r.__u),o=[d=e.__e=r.__e]),(f=w.__b)&&f(e);e:if(typeof N=="function"){p=s.length;try{if(v=e.props,_=N.prototype&&N.prototype.render,E=(f=N.contextType)&&i[f.__c],O=f?E?E.props.value:f.__:i,r.__c?$=(c=e.__c=r.__c).__=c.__E:(_?e.__c=c=new N(v,O):(e.__c=c=new Ce(v,O),c.constructor=N,c.render=cn),E&&E.sub(c),c.state||(c.state={}),c.__n=i,h=c.__d=!0,c.__h=[],c._sb=[]),_&&c.__s==null&&(c.__s=c.state),_&&N.getDerivedStateFromProps!=null&&(c.__s==c.state&&(c.__s=W({},c.__s)),W(c.__s,N.getDerivedStateFromProps(v,c.__s))),g=c.props,b=c.state,c.__v=e,h)_&&N.getDerivedStateFromProps==null&&c.componentWillMount!=null&&c.componentWillMount(),_&&c.componentDidMount!=null&&c.__h.push(c.componentDidMount);else{if(_&&N.getDerivedStateFromProps==null&&v!==g&&c.componentWillReceiveProps!=null&&c.componentWillReceiveProps(v,O),e.__v==r.__v||!c.__e&&c.shouldComponentUpdate!=null&&c.shouldComponentUpdate(v,c.__s,O)===!1){e.__v!=r.__v&&(c.props=v,c.state=c.__s,c.__d=!1),e.__e=r.__e,e.__k=r.__k,e.__k.some(function(H){H&&(H.__=e)}),Re.push.apply(c.__h,c._sb),c._sb=[],c.__h.length&&s.push(c),d=oe(r);break e}c.componentWillUpdate!=null&&c.componentWillUpdate(v,c.__s,O),_&&c.componentDidUpdate!=null&&c.__h.push(function(){c.componentDidUpdate(g,b,y)})}if(c.context=O,c.props=v,c.__P=t,c.__e=!1,M=w.__r,re=0,_)c.state=c.__s,c.__d=!1,M&&M(e),f=c.render(c.props,c.state,c.context),Re.push.apply(c.__h,c._sb),c._sb=[];else do c.__d=!1,M&&M(e),f=c.render(c.props,c.state,c.context),c.state=c.__s;while(c.__d&&++re<25);c.state=c.__s,c.getChildContext!=null&&(i=W(W({},i),c.getChildContext())),_&&!h&&c.getSnapshotBeforeUpdate!=null&&(y=c.getSnapshotBeforeUpdate(g,b)),G=f!=null&&f.type===z&&f.key==null?Ot(f.props.children):f,d=Nt(t,ve(G)?G:[G],e,r,i,a,o,s,d,u,l),c.base=e.__e,e.__u&=-161,c.__h.length&&s.push(c),$&&(c.__E=c.__=null)}catch(H){if(s.length=p,e.__v=null,u||o!=null){if(H.then){for(e.__u|=u?160:128;d&&d.nodeType==8&&d.nextSibling;)d=d.nextSibling;o!=null&&(o[o.indexOf(d)]=null),e.__e=d}else if(o!=null)for(S=o.length;S--;)Xe(o[S])}else e.__e=r.__e;e.__k==null&&(e.__k=r.__k||[]),H.then||Et(e),w.__e(H,e,r)}}else o==null&&e.__v==r.__v?(e.__k=r.__k,e.__e=r.__e):d=e.__e=sn(r.__e,e,r,i,a,o,s,u,l);return(f=w.diffed)&&f(e),128&e.__u?void 0:d}function Et(t){t&&(t.__c&&(t.__c.__e=!0),t.__k&&t.__k.some(Et))}function qt(t,e,r){for(var i=0;i<r.length;i++)et(r[i],r[++i],r[++i]);w.__c&&w.__c(e,t),t.some(function(a){try{t=a.__h,a.__h=[],t.some(function(o){o.call(a)})}catch(o){w.__e(o,a.__v)}})}function Ot(t){return typeof t!="object"||t==null||t.__b>0?t:ve(t)?t.map(Ot):t.constructor!==void 0?null:W({},t)}function sn(t,e,r,i,a,o,s,d,u){var l,f,p,c,h,g,b,y=r.props||De,$=e.props,v=e.type;if(v=="svg"?a="http://www.w3.org/2000/svg":v=="math"?a="http://www.w3.org/1998/Math/MathML":a||(a="http://www.w3.org/1999/xhtml"),o!=null){for(l=0;l<o.length;l++)if((h=o[l])&&"setAttribute"in h==!!v&&(v?h.localName==v:h.nodeType==3)){t=h,o[l]=null;break}}if(t==null){if(v==null)return document.createTextNode($);t=document.createElementNS(a,v,$.is&&$),d&&(w.__m&&w.__m(e,o),d=!1),o=null}if(v==null)y===$||d&&t.data==$||(t.data=$);else{if(o=v=="textarea"&&$.defaultValue!=null?null:o&&ye.call(t.childNodes),!d&&o!=null)for(y={},l=0;l<t.attributes.length;l++)y[(h=t.attributes[l]).name]=h.value;for(l in y)h=y[l],l=="dangerouslySetInnerHTML"?p=h:l=="children"||l in $||l=="value"&&"defaultValue"in $||l=="checked"&&"defaultChecked"in $||$e(t,l,null,h,a);for(l in $)h=$[l],l=="children"?c=h:l=="dangerouslySetInnerHTML"?f=h:l=="value"?g=h:l=="checked"?b=h:d&&typeof h!="function"||y[l]===h||$e(t,l,h,y[l],a);if(f)d||p&&(f.__html==p.__html||f.__html==t.innerHTML)||(t.innerHTML=f.__html),e.__k=[];else if(p&&(t.innerHTML=""),Nt(e.type=="template"?t.content:t,ve(c)?c:[c],e,r,i,v=="foreignObject"?"http://www.w3.org/1999/xhtml":a,o,s,o?o[0]:r.__k&&oe(r,0),d,u),o!=null)for(l=o.length;l--;)Xe(o[l]);d&&v!="textarea"||(l="value",v=="progress"&&g==null?t.removeAttribute("value"):g!=null&&(g!==t[l]||v=="progress"&&!g||v=="option"&&g!=y[l])&&$e(t,l,g,y[l],a),l="checked",b!=null&&b!=t[l]&&$e(t,l,b,y[l],a))}return t}function et(t,e,r){try{if(typeof t=="function"){var i=typeof t.__u=="function";i&&t.__u(),i&&e==null||(t.__u=t(e))}else t.current=e}catch(a){w.__e(a,r)}}function Ut(t,e,r){var i,a;if(w.unmount&&w.unmount(t),(i=t.ref)&&(i.current&&i.current!=t.__e||et(i,null,e)),(i=t.__c)!=null){if(i.componentWillUnmount)try{i.componentWillUnmount()}catch(o){w.__e(o,e)}i.base=i.__P=i.__n=null}if(i=t.__k)for(a=0;a<i.length;a++)i[a]&&Ut(i[a],e,r||typeof t.type!="function");r||Xe(t.__e),t.__c=t.__=t.__e=void 0}function cn(t,e,r){return this.constructor(t,r)}function ln(t,e,r){var i,a,o,s;e==document&&(e=document.documentElement),w.__&&w.__(t,e),a=(i=!1)?null:e.__k,o=[],s=[],Ze(e,t=e.__k=ie(z,null,[t]),a||De,De,e.namespaceURI,a?null:e.firstChild?ye.call(e.childNodes):null,o,a?a.__e:e.firstChild,i,s),qt(o,t,s),t.props.children=null}function pt(t,e,r){var i,a,o,s,d=W({},t.props);for(o in t.type&&t.type.defaultProps&&(s=t.type.defaultProps),e)o=="key"?i=e[o]:o=="ref"?a=e[o]:d[o]=e[o]===void 0&&s!=null?s[o]:e[o];return arguments.length>2&&(d.children=arguments.length>3?ye.call(arguments,2):r),_e(t.type,d,i||t.key,a||t.ref,null)}function Lt(t){function e(r){var i,a;return this.getChildContext||(i=new Set,(a={})[e.__c]=this,this.getChildContext=function(){return a},this.componentWillUnmount=function(){i=null},this.shouldComponentUpdate=function(o){this.props.value!=o.value&&i.forEach(function(s){s.__e=!0,Fe(s)})},this.sub=function(o){i.add(o);var s=o.componentWillUnmount;o.componentWillUnmount=function(){i&&i.delete(o),s&&s.call(o)}}),r.children}return e.__c="__cC"+Rt++,e.__=t,e.Provider=e.__l=(e.Consumer=function(r,i){return r.children(i)}).contextType=e,e}ye=Re.slice,w={__e:function(t,e,r,i){for(var a,o,s;e=e.__;)if((a=e.__c)&&!a.__)try{if((o=a.constructor)&&o.getDerivedStateFromError!=null&&(a.setState(o.getDerivedStateFromError(t)),s=a.__d),a.componentDidCatch!=null&&(a.componentDidCatch(t,i||{}),s=a.__d),s)return a.__E=a}catch(d){t=d}throw t}},jt=0,Ce.prototype.setState=function(t,e){var r;r=this.__s!=null&&this.__s!=this.state?this.__s:this.__s=W({},this.state),typeof t=="function"&&(t=t(W({},r),this.props)),t&&W(r,t),t!=null&&this.__v&&(e&&this._sb.push(e),Fe(this))},Ce.prototype.forceUpdate=function(t){this.__v&&(this.__e=!0,t&&this.__h.push(t),Fe(this))},Ce.prototype.render=z,Y=[],Ct=typeof Promise=="function"?Promise.prototype.then.bind(Promise.resolve()):setTimeout,At=function(t,e){return t.__v.__b-e.__v.__b},Pe.__r=0,Oe=Math.random().toString(8),je="__d"+Oe,ge="__a"+Oe,Dt=/(PointerCapture)$|Capture$/i,Ye=0,ze=ut(!1),Be=ut(!0),Rt=0;var dn=0;function n(t,e,r,i,a,o){e||(e={});var s,d,u=e;if("ref"in u)for(d in u={},e)d=="ref"?s=e[d]:u[d]=e[d];var l={type:t,props:u,key:r,ref:s,__k:null,__:null,__b:0,__e:null,__c:null,constructor:void 0,__v:--dn,__i:-1,__u:0,__source:a,__self:o};if(typeof t=="function"&&(s=t.defaultProps))for(d in s)u[d]===void 0&&(u[d]=s[d]);return w.vnode&&w.vnode(l),l}var ae,C,Ue,ht,me=0,Kt=[],R=w,ft=R.__b,gt=R.__r,_t=R.diffed,mt=R.__c,yt=R.unmount,vt=R.__;function Ie(t,e){R.__h&&R.__h(C,t,me||e),me=0;var r=C.__H||(C.__H={__:[],__h:[]});return t>=r.__.length&&r.__.push({}),r.__[t]}function m(t){return me=1,tt(Bt,t)}function tt(t,e,r){var i=Ie(ae++,2);if(i.t=t,!i.__c&&(i.__=[Bt(void 0,e),function(d){var u=i.__N?i.__N[0]:i.__[0],l=i.t(u,d);u!==l&&(i.__N=[l,i.__[1]],i.__c.setState({}))}],i.__c=C,!C.__f)){var a=function(d,u,l){if(!i.__c.__H)return!0;var f=!1,p=i.__c.props!==d;if(i.__c.__H.__.some(function(h){if(h.__N){f=!0;var g=h.__[0];h.__=h.__N,h.__N=void 0,g!==h.__[0]&&(p=!0)}}),o){var c=o.call(this,d,u,l);return f?c||p:c}return!f||p};C.__f=!0;var o=C.shouldComponentUpdate,s=C.componentWillUpdate;C.componentWillUpdate=function(d,u,l){if(this.__e){var f=o;o=void 0,a(d,u,l),o=f}s&&s.call(this,d,u,l)},C.shouldComponentUpdate=a}return i.__N||i.__}function Q(t,e){var r=Ie(ae++,3);!R.__s&&rt(r.__H,e)&&(r.__=t,r.u=e,C.__H.__h.push(r))}function zt(t,e){var r=Ie(ae++,4);!R.__s&&rt(r.__H,e)&&(r.__=t,r.u=e,C.__h.push(r))}function K(t){return me=5,xe(function(){return{current:t}},[])}function xe(t,e){var r=Ie(ae++,7);return rt(r.__H,e)&&(r.__=t(),r.__H=e,r.__h=t),r.__}function un(t,e){return me=8,xe(function(){return t},e)}function nt(t){var e=C.context[t.__c],r=Ie(ae++,9);return r.c=t,e?(r.__==null&&(r.__=!0,e.sub(C)),e.props.value):t.__}function pn(){for(var t;t=Kt.shift();){var e=t.__H;if(t.__P&&e)try{e.__h.some(Ae),e.__h.some(Me),e.__h=[]}catch(r){e.__h=[],R.__e(r,t.__v)}}}R.__b=function(t){C=null,ft&&ft(t)},R.__=function(t,e){t&&e.__k&&e.__k.__m&&(t.__m=e.__k.__m),vt&&vt(t,e)},R.__r=function(t){gt&&gt(t),ae=0;var e=(C=t.__c).__H;e&&(Ue===C?(e.__h=[],C.__h=[],e.__.some(function(r){r.__N&&(r.__=r.__N),r.u=r.__N=void 0})):(e.__h.some(Ae),e.__h.some(Me),e.__h=[],ae=0)),Ue=C},R.diffed=function(t){_t&&_t(t);var e=t.__c;e&&e.__H&&(e.__H.__h.length&&(Kt.push(e)!==1&&ht===R.requestAnimationFrame||((ht=R.requestAnimationFrame)||hn)(pn)),e.__H.__.some(function(r){r.u&&(r.__H=r.u,r.u=void 0)})),Ue=C=null},R.__c=function(t,e){e.some(function(r){try{r.__h.some(Ae),r.__h=r.__h.filter(function(i){return!i.__||Me(i)})}catch(i){e.some(function(a){a.__h&&(a.__h=[])}),e=[],R.__e(i,r.__v)}}),mt&&mt(t,e)},R.unmount=function(t){yt&&yt(t);var e,r=t.__c;r&&r.__H&&(r.__H.__.some(function(i){try{Ae(i)}catch(a){e=a}}),r.__H=void 0,e&&R.__e(e,r.__v))};var It=typeof requestAnimationFrame=="function";function hn(t){var e,r=function(){clearTimeout(i),It&&cancelAnimationFrame(e),setTimeout(t)},i=setTimeout(r,35);It&&(e=requestAnimationFrame(r))}function Ae(t){var e=C,r=t.__c;typeof r=="function"&&(t.__c=void 0,r()),C=e}function Me(t){var e=C;t.__c=t.__(),C=e}function rt(t,e){return!t||t.length!==e.length||e.some(function(r,i){return r!==t[i]})}function Bt(t,e){return typeof e=="function"?e(t):e}const fn=(function(){const e=typeof document<"u"&&document.createElement("link").relList;return e&&e.supports&&e.supports("modulepreload")?"modulepreload":"preload"})(),gn=function(t){return"/"+t},bt={},_n=function(e,r,i){let a=Promise.resolve();if(r&&r.length>0){let l=function(f){return Promise.all(f.map(p=>Promise.resolve(p).then(c=>({status:"fulfilled",value:c}),c=>({status:"rejected",reason:c}))))};var s=l;document.getElementsByTagName("link");const d=document.querySelector("meta[property=csp-nonce]"),u=d?.nonce||d?.getAttribute("nonce");a=l(r.map(f=>{if(f=gn(f),f in bt)return;bt[f]=!0;const p=f.endsWith(".css"),c=p?'[rel="stylesheet"]':"";if(document.querySelector(`link[href="${f}"]${c}`))return;const h=document.createElement("link");if(h.rel=p?"stylesheet":fn,p||(h.as="script"),h.crossOrigin="",h.href=f,u&&h.setAttribute("nonce",u),document.head.appendChild(h),p)return new Promise((g,b)=>{h.addEventListener("load",g),h.addEventListener("error",()=>b(new Error(`Unable to preload CSS for ${f}`)))})}))}function o(d){const u=new Event("vite:preloadError",{cancelable:!0});if(u.payload=d,window.dispatchEvent(u),!u.defaultPrevented)throw d}return a.then(d=>{for(const u of d||[])u.status==="rejected"&&o(u.reason);return e().catch(o)})};let ce,fe;function mn(t){return!fe||(typeof fe=="string"?t.startsWith(fe):fe.test(t))}function yn(t,e){let r="";if(ce=void 0,e&&e.type==="click"){if(e.ctrlKey||e.metaKey||e.altKey||e.shiftKey||e.button!==0)return t;const i=e.composedPath().find(o=>o.nodeName=="A"&&o.href),a=i&&i.getAttribute("href");if(!i||i.origin!=location.origin||/^#/.test(a)||!/^(_?self)?$/i.test(i.target)||!mn(a)||i.download)return t;ce=!0,e.preventDefault(),r=i.href.replace(location.origin,"")}else e&&e.url?(ce=!e.replace,r=e.url):r=location.pathname+location.search;return ce===!0?history.pushState(null,"",r):ce===!1&&history.replaceState(null,"",r),r}const vn=(t,e,r={})=>{t=t.split("/").filter(Boolean),e=(e||"").split("/").filter(Boolean),r.params||(r.params={});for(let i=0,a,o;i<Math.max(t.length,e.length);i++){let[,s,d,u]=(e[i]||"").match(/^(:?)(.*?)([+*?]?)$/);if(a=t[i],!(!s&&d==a)){if(!s&&a&&u=="*"){r.rest="/"+t.slice(i).join("/");break}if(!s||!a&&u!="?"&&u!="*")return;if(o=u=="+"||u=="*",o?a=t.slice(i).map(decodeURIComponent).join("/")||void 0:a&&(a=decodeURIComponent(a)),r.params[d]=a,d in r||(r[d]=a),o)break}}return r};function be(t){const[e,r]=tt(yn,t.url||location.pathname+location.search);t.scope&&(fe=t.scope);const i=ce===!0,a=xe(()=>{const o=new URL(e,location.origin),s=o.pathname.replace(/\/+$/g,"")||"/";return{url:e,path:s,query:Object.fromEntries(o.searchParams),route:(d,u)=>r({url:d,replace:u}),back:()=>{history.back()},forward:()=>{history.forward()},wasPush:i}},[e]);return zt(()=>(addEventListener("click",r),addEventListener("popstate",r),()=>{removeEventListener("click",r),removeEventListener("popstate",r)}),[]),ie(be.ctx.Provider,{value:a},t.children)}const In=Promise.resolve();function He(t){const[e,r]=tt(S=>S+1,0),{url:i,query:a,wasPush:o,path:s}=U();if(!i)throw new Error("preact-iso's <Router> must be used within a <LocationProvider>, see: https://github.com/preactjs/preact-iso#locationprovider");const{rest:d=s,params:u={}}=nt(Ve),l=K(!1),f=K(s),p=K(1),c=K(),h=K(),g=K(),b=K(!1),y=K();y.current=!1;let $,v,_;xt(t.children).some(S=>{if(vn(d,S.props.path,_={...S.props,path:d,query:a,params:Object.assign({},u),rest:""}))return $=pt(S,_);S.props.default&&(v=pt(S,_))});let E=$||v;const O=c.current&&c.current.__u&we&&c.current.__u&ke,M=c.current&&c.current.__h,re=xe(()=>{h.current=c.current,c.current=ie(Ve.Provider,{value:_},E);const S=h.current&&h.current.props.children;return!S||!E||E.type!==S.type||E.props.component!==S.props.component?(p.current++,!0):!1},[i,JSON.stringify(_)]);O?(c.current.__u|=we,c.current.__u|=ke):M&&(c.current.__h=!0);const G=h.current;return h.current=null,this.__c=(S,N)=>{y.current=!0,h.current=G,t.onLoadStart&&t.onLoadStart(i),l.current=!0;let H=p.current;S.then(()=>{H===p.current&&(h.current=null,c.current&&(N.__h&&(c.current.__h=N.__h),N.__u&ke&&(c.current.__u|=ke),N.__u&we&&(c.current.__u|=we)),In.then(r))})},zt(()=>{const S=this.__v&&this.__v.__e;if(y.current){!b.current&&!g.current&&(g.current=S);return}!b.current&&g.current&&(g.current!==S&&g.current.remove(),g.current=null),b.current=!0,f.current!==s&&(o&&scrollTo(0,0),t.onRouteChange&&t.onRouteChange(i),f.current=s),t.onLoadEnd&&l.current&&t.onLoadEnd(i),l.current=!1},[s,o,e]),re?[ie(Le,{r:c,key:p.current}),ie(Le,{r:h,key:p.current-1})]:ie(Le,{r:c,key:p.current})}const we=32,ke=128,Le=({r:t})=>t.current;He.Provider=be;be.ctx=Lt({});const Ve=Lt({}),x=t=>ie(t.component,t),U=()=>nt(be.ctx),ee=()=>nt(Ve),We={unauthenticated:"Your session has ended. Log in again.",forbidden:"You are not allowed to do this.",not_found:"Not found, or not yours.",rate_limited:"Too many requests. Wait a moment and try again.",unavailable:"The service is unavailable right now. Try again shortly.",internal:"Something went wrong on our side. Try again; if it persists, contact support.",network:"The server cannot be reached. Check your connection and try again."};class T extends Error{code;problems;constructor(e,r,i=[]){super(r),this.code=e,this.problems=i}static from(e){const r=e[0],i=r?.extensions?.code??"internal",a=e.flatMap(s=>s.extensions?.detail??[]);let o=r?.message??"Unknown error";return i==="invalid"&&a.length>0?o="Some fields need your attention.":i!=="conflict"&&i!=="authority_not_configured"&&We[i]&&i!=="unauthenticated"&&(o=`${We[i]}${r?.message&&i!=="internal"?` (${r.message})`:""}`),new T(i,o,a)}fieldErrors(e=["input"]){const r={};for(const i of this.problems){let a=i.loc;for(;a.length>0&&e.includes(String(a[0]));)a=a.slice(1);const o=a.join(".");o in r||(r[o]=i.msg)}return r}}function Ft(){return new T("network",We.network)}function bn(t){return t instanceof T||t instanceof Error?t.message:String(t)}function $n(t){let e=t;const r=new Set;return{get:()=>e,set(i){e=i,r.forEach(a=>a(i))},subscribe(i){return r.add(i),()=>r.delete(i)}}}function wn(t){const[e,r]=m(t.get());return Q(()=>(r(t.get()),t.subscribe(r)),[t]),e}const X=$n({status:"unknown"});let Qe;function it(t,e,r){const i=Date.now()+e*1e3;X.set({status:"signedIn",token:t,expiresAt:i,user:r}),clearTimeout(Qe);const a=Math.max(1e4,e*1e3-6e4);Qe=setTimeout(()=>{Ee()},a)}function ot(){clearTimeout(Qe),X.set({status:"signedOut"})}let Ge,he;function kn(t){Ge=t}function Ee(){if(he)return he;const t=async()=>{if(!Ge)return!1;const i=await Ge();return i?(it(i.accessToken,i.expiresIn,i.user),!0):(ot(),!1)},e=navigator.locks;return he=(e?e.request("einvoice-session-refresh",t):t()).finally(()=>{he=void 0}),he}const Mt="/graphql";async function Ne(t,e,r){const i={"Content-Type":"application/json",Accept:"application/json"};r&&(i.Authorization=`Bearer ${r}`);let a;try{a=await fetch(Mt,{method:"POST",headers:i,body:JSON.stringify({query:t,variables:e}),credentials:"same-origin"})}catch{throw Ft()}let o;try{o=await a.json()}catch{throw a.status===429?new T("rate_limited","Too many requests. Wait a moment and try again."):new T("internal",`The server answered ${a.status}.`)}return a.status===401&&!o.errors&&(o.errors=[{message:"unauthenticated",extensions:{code:"unauthenticated"}}]),o}function $t(t){return!!t?.some(e=>e.extensions?.code==="unauthenticated")}async function P(t,...[e]){const r=t.toString();let i=await Ne(r,e??{},X.get().token);if($t(i.errors)&&X.get().token!==void 0)if(await Ee())i=await Ne(r,e??{},X.get().token);else throw new T("unauthenticated","Your session has ended. Log in again.");if(i.errors?.length)throw $t(i.errors)&&X.get().status==="signedIn"&&ot(),T.from(i.errors);if(!i.data)throw new T("internal","The server answered no data.");return i.data}async function at(t,e){const r=await Ne(t.toString(),e??{});if(r.errors?.length)throw T.from(r.errors);if(!r.data)throw new T("internal","The server answered no data.");return r.data}const Sn="mutation RefreshSession { refreshSession { accessToken expiresIn user { id email } } }";kn(async()=>{try{return(await Ne(Sn,{})).data?.refreshSession??null}catch{return null}});let le;async function jn(){if(le)return le;const{createClient:t}=await _n(async()=>{const{createClient:r}=await import("./index-CVrq6WPd.js");return{createClient:r}},[]),e=`${location.protocol==="https:"?"wss":"ws"}://${location.host}${Mt}`;return le=t({url:e,lazy:!0,retryAttempts:5,shouldRetry:()=>!0,connectionParams:()=>{const r=X.get().token;return r?{Authorization:`Bearer ${r}`}:{}},on:{closed:r=>{r?.code===4403&&Ee()}}}),le}function Cn(){le?.dispose(),le=void 0}function An(t,e,r,i){let a,o=!1;return jn().then(s=>{o||(a=s.subscribe({query:t.toString(),variables:e},{next:d=>{d.errors?.length?i(T.from(d.errors)):d.data&&r(d.data)},error:d=>{Array.isArray(d)?i(T.from(d)):i(Ft())},complete:()=>i()}))}),()=>{o=!0,a?.()}}function J(t,e){const[r,i]=m({loading:!0}),[a,o]=m(0),s=K(0);Q(()=>{const u=++s.current;i(l=>({data:l.data,loading:!0})),t().then(l=>u===s.current&&i({data:l,loading:!1}),l=>u===s.current&&i({error:l,loading:!1}))},[...e,a]);const d=un(()=>o(u=>u+1),[]);return{...r,reload:d}}class A extends String{__apiType;value;__meta__;constructor(e,r){super(e),this.value=e,this.__meta__=r}toString(){return this.value}}const Dn=new A(`
    mutation Signup($input: SignupInput!) {
  signup(input: $input) {
    accessToken
    expiresIn
    user {
      id
      email
    }
    organization {
      id
    }
  }
}
    `),Rn=new A(`
    mutation Login($input: LoginInput!) {
  login(input: $input) {
    accessToken
    expiresIn
    user {
      id
      email
    }
    organizations {
      id
    }
  }
}
    `),Pn=new A(`
    mutation EndSession {
  endSession {
    ended
  }
}
    `),Nn=new A(`
    query Orgs {
  me {
    id
    email
    organizations(first: 200) {
      edges {
        node {
          id
          name
          slug
          role
        }
      }
    }
  }
}
    `),Tn=new A(`
    mutation CreateOrg($input: CreateOrganizationInput!) {
  createOrganization(input: $input) {
    id
    name
    slug
    role
  }
}
    `),xn=new A(`
    query OrgProjects($id: ID!) {
  organization(id: $id) {
    id
    name
    role
    projects(first: 200) {
      edges {
        node {
          id
          name
          environment
          createdAt
          authority {
            configured
          }
        }
      }
    }
  }
}
    `),En=new A(`
    mutation CreateProject($input: CreateProjectInput!) {
  createProject(input: $input) {
    id
    name
    environment
  }
}
    `),qn=new A(`
    query Project($id: ID!) {
  project(id: $id) {
    id
    name
    environment
    createdAt
    organization {
      id
      name
      role
    }
    authority {
      taxAuthorityCode
      businessId
      serviceId
      configured
      qrEncryption
      publicKeyFingerprint
      baseUrl
      hasApiCredentials
    }
  }
}
    `),On=new A(`
    mutation UpdateAuthority($projectId: ID!, $input: UpdateProjectAuthorityInput!) {
  updateProjectAuthority(projectId: $projectId, input: $input) {
    id
    authority {
      taxAuthorityCode
      businessId
      serviceId
      configured
      qrEncryption
      publicKeyFingerprint
      baseUrl
      hasApiCredentials
    }
  }
}
    `),Un=new A(`
    query Keys($id: ID!) {
  apiKeyScopes
  project(id: $id) {
    id
    name
    environment
    apiKeys(first: 200) {
      edges {
        node {
          id
          keyName
          clientId
          secretLast4
          scopes
          status
          createdAt
          lastUsedAt
          rotatedAt
          revokedAt
        }
      }
    }
  }
}
    `),Ln=new A(`
    mutation CreateKey($input: CreateApiKeyInput!) {
  createApiKey(input: $input) {
    clientSecret
    key {
      id
      keyName
      clientId
      scopes
    }
  }
}
    `),Kn=new A(`
    mutation RotateKey($projectId: ID!, $keyId: ID!, $graceSeconds: Int) {
  rotateApiKey(projectId: $projectId, keyId: $keyId, graceSeconds: $graceSeconds) {
    clientSecret
    key {
      id
      keyName
      clientId
    }
  }
}
    `),zn=new A(`
    mutation RevokeKey($projectId: ID!, $keyId: ID!) {
  revokeApiKey(projectId: $projectId, keyId: $keyId) {
    id
    status
    revokedAt
  }
}
    `),Bn=new A(`
    query Runs($id: ID!, $after: String) {
  project(id: $id) {
    id
    name
    authority {
      configured
    }
    certificationRuns(first: 20, after: $after) {
      edges {
        node {
          id
          status
          invoiceType
          issueDate
          irn
          failureReason
          createdAt
          finishedAt
        }
      }
      pageInfo {
        hasNextPage
        endCursor
      }
    }
  }
}
    `),Fn=new A(`
    mutation StartRun($input: StartCertificationRunInput!) {
  startCertificationRun(input: $input) {
    id
    status
  }
}
    `),Mn=new A(`
    query Run($id: ID!) {
  certificationRun(id: $id) {
    id
    projectId
    status
    invoiceType
    issueDate
    irn
    failureReason
    createdAt
    finishedAt
    temporal {
      workflowId
      runId
      uiUrl
    }
    steps {
      name
      status
      attempts
      startedAt
      finishedAt
      durationMs
      httpStatus
      nrsErrorId
      message
    }
  }
}
    `),Hn=new A(`
    subscription RunUpdated($id: ID!) {
  certificationRunUpdated(id: $id) {
    id
    projectId
    status
    invoiceType
    issueDate
    irn
    failureReason
    createdAt
    finishedAt
    temporal {
      workflowId
      runId
      uiUrl
    }
    steps {
      name
      status
      attempts
      startedAt
      finishedAt
      durationMs
      httpStatus
      nrsErrorId
      message
    }
  }
}
    `),Vn=new A(`
    query Usage($id: ID!, $from: String, $to: String, $keyId: ID) {
  project(id: $id) {
    id
    name
    apiKeys(first: 200) {
      edges {
        node {
          id
          keyName
          status
        }
      }
    }
    usage(from: $from, to: $to, keyId: $keyId) {
      from
      to
      total
      keyId
      byOperation {
        operation
        count
      }
      daily {
        date
        operation
        count
      }
    }
  }
}
    `),Wn=new A(`
    query Audit($org: ID, $action: String, $after: String) {
  auditActions
  auditLogs(organizationId: $org, action: $action, first: 25, after: $after) {
    edges {
      node {
        id
        action
        createdAt
        ip
        userAgent
        requestId
        hash
        prevHash
        actor {
          type
          id
        }
        target {
          type
          id
        }
      }
    }
    pageInfo {
      hasNextPage
      endCursor
    }
  }
}
    `),Qn=new A(`
    query ValidateInvoice($projectId: ID!, $input: ValidateInvoiceInput!) {
  validateInvoice(projectId: $projectId, input: $input) {
    valid
    schemaVersion
    ruleset
    errors {
      rule
      severity
      path
      loc
      message
    }
    warnings {
      rule
      severity
      path
      loc
      message
    }
  }
}
    `),Gn=new A(`
    mutation GenerateIrn($projectId: ID!, $input: GenerateIrnInput!) {
  generateIrn(projectId: $projectId, input: $input) {
    irn
    invoiceReference
    serviceId
    issueDate
  }
}
    `),Jn=new A(`
    query InvoiceQr($projectId: ID!, $input: InvoiceQrCodeInput!) {
  invoiceQrCode(projectId: $projectId, input: $input, png: true) {
    irn
    timestamp
    qrPayload
    encryption
    keyFingerprint
    qrPngBase64
  }
}
    `),Yn=new A(`
    query RenderInvoice($projectId: ID!, $input: RenderInvoiceInput!) {
  renderInvoice(projectId: $projectId, input: $input, pdf: true) {
    valid
    irn
    pdfBase64
  }
}
    `),Xn={"\n  mutation Signup($input: SignupInput!) {\n    signup(input: $input) { accessToken expiresIn user { id email } organization { id } }\n  }\n":Dn,"\n  mutation Login($input: LoginInput!) {\n    login(input: $input) { accessToken expiresIn user { id email } organizations { id } }\n  }\n":Rn,"\n  mutation EndSession {\n    endSession { ended }\n  }\n":Pn,"\n  query Orgs {\n    me { id email organizations(first: 200) { edges { node { id name slug role } } } }\n  }\n":Nn,"\n  mutation CreateOrg($input: CreateOrganizationInput!) {\n    createOrganization(input: $input) { id name slug role }\n  }\n":Tn,"\n  query OrgProjects($id: ID!) {\n    organization(id: $id) {\n      id name role\n      projects(first: 200) { edges { node { id name environment createdAt authority { configured } } } }\n    }\n  }\n":xn,"\n  mutation CreateProject($input: CreateProjectInput!) {\n    createProject(input: $input) { id name environment }\n  }\n":En,"\n  query Project($id: ID!) {\n    project(id: $id) {\n      id name environment createdAt\n      organization { id name role }\n      authority {\n        taxAuthorityCode businessId serviceId configured qrEncryption publicKeyFingerprint baseUrl hasApiCredentials\n      }\n    }\n  }\n":qn,"\n  mutation UpdateAuthority($projectId: ID!, $input: UpdateProjectAuthorityInput!) {\n    updateProjectAuthority(projectId: $projectId, input: $input) {\n      id authority { taxAuthorityCode businessId serviceId configured qrEncryption publicKeyFingerprint baseUrl hasApiCredentials }\n    }\n  }\n":On,"\n  query Keys($id: ID!) {\n    apiKeyScopes\n    project(id: $id) {\n      id name environment\n      apiKeys(first: 200) {\n        edges { node { id keyName clientId secretLast4 scopes status createdAt lastUsedAt rotatedAt revokedAt } }\n      }\n    }\n  }\n":Un,"\n  mutation CreateKey($input: CreateApiKeyInput!) {\n    createApiKey(input: $input) { clientSecret key { id keyName clientId scopes } }\n  }\n":Ln,"\n  mutation RotateKey($projectId: ID!, $keyId: ID!, $graceSeconds: Int) {\n    rotateApiKey(projectId: $projectId, keyId: $keyId, graceSeconds: $graceSeconds) { clientSecret key { id keyName clientId } }\n  }\n":Kn,"\n  mutation RevokeKey($projectId: ID!, $keyId: ID!) {\n    revokeApiKey(projectId: $projectId, keyId: $keyId) { id status revokedAt }\n  }\n":zn,"\n  query Runs($id: ID!, $after: String) {\n    project(id: $id) {\n      id name authority { configured }\n      certificationRuns(first: 20, after: $after) {\n        edges { node { id status invoiceType issueDate irn failureReason createdAt finishedAt } }\n        pageInfo { hasNextPage endCursor }\n      }\n    }\n  }\n":Bn,"\n  mutation StartRun($input: StartCertificationRunInput!) {\n    startCertificationRun(input: $input) { id status }\n  }\n":Fn,"\n  query Run($id: ID!) {\n    certificationRun(id: $id) {\n      id projectId status invoiceType issueDate irn failureReason createdAt finishedAt\n      temporal { workflowId runId uiUrl }\n      steps { name status attempts startedAt finishedAt durationMs httpStatus nrsErrorId message }\n    }\n  }\n":Mn,"\n  subscription RunUpdated($id: ID!) {\n    certificationRunUpdated(id: $id) {\n      id projectId status invoiceType issueDate irn failureReason createdAt finishedAt\n      temporal { workflowId runId uiUrl }\n      steps { name status attempts startedAt finishedAt durationMs httpStatus nrsErrorId message }\n    }\n  }\n":Hn,"\n  query Usage($id: ID!, $from: String, $to: String, $keyId: ID) {\n    project(id: $id) {\n      id name\n      apiKeys(first: 200) { edges { node { id keyName status } } }\n      usage(from: $from, to: $to, keyId: $keyId) {\n        from to total keyId\n        byOperation { operation count }\n        daily { date operation count }\n      }\n    }\n  }\n":Vn,"\n  query Audit($org: ID, $action: String, $after: String) {\n    auditActions\n    auditLogs(organizationId: $org, action: $action, first: 25, after: $after) {\n      edges { node { id action createdAt ip userAgent requestId hash prevHash actor { type id } target { type id } } }\n      pageInfo { hasNextPage endCursor }\n    }\n  }\n":Wn,"\n  query ValidateInvoice($projectId: ID!, $input: ValidateInvoiceInput!) {\n    validateInvoice(projectId: $projectId, input: $input) {\n      valid schemaVersion ruleset\n      errors { rule severity path loc message }\n      warnings { rule severity path loc message }\n    }\n  }\n":Qn,"\n  mutation GenerateIrn($projectId: ID!, $input: GenerateIrnInput!) {\n    generateIrn(projectId: $projectId, input: $input) { irn invoiceReference serviceId issueDate }\n  }\n":Gn,"\n  query InvoiceQr($projectId: ID!, $input: InvoiceQrCodeInput!) {\n    invoiceQrCode(projectId: $projectId, input: $input, png: true) { irn timestamp qrPayload encryption keyFingerprint qrPngBase64 }\n  }\n":Jn,"\n  query RenderInvoice($projectId: ID!, $input: RenderInvoiceInput!) {\n    renderInvoice(projectId: $projectId, input: $input, pdf: true) { valid irn pdfBase64 }\n  }\n":Yn};function D(t){return Xn[t]??{}}const Zn=D(`
  mutation Signup($input: SignupInput!) {
    signup(input: $input) { accessToken expiresIn user { id email } organization { id } }
  }
`),er=D(`
  mutation Login($input: LoginInput!) {
    login(input: $input) { accessToken expiresIn user { id email } organizations { id } }
  }
`),tr=D(`
  mutation EndSession {
    endSession { ended }
  }
`),st=D(`
  query Orgs {
    me { id email organizations(first: 200) { edges { node { id name slug role } } } }
  }
`),nr=D(`
  mutation CreateOrg($input: CreateOrganizationInput!) {
    createOrganization(input: $input) { id name slug role }
  }
`),rr=D(`
  query OrgProjects($id: ID!) {
    organization(id: $id) {
      id name role
      projects(first: 200) { edges { node { id name environment createdAt authority { configured } } } }
    }
  }
`),ir=D(`
  mutation CreateProject($input: CreateProjectInput!) {
    createProject(input: $input) { id name environment }
  }
`),or=D(`
  query Project($id: ID!) {
    project(id: $id) {
      id name environment createdAt
      organization { id name role }
      authority {
        taxAuthorityCode businessId serviceId configured qrEncryption publicKeyFingerprint baseUrl hasApiCredentials
      }
    }
  }
`),ar=D(`
  mutation UpdateAuthority($projectId: ID!, $input: UpdateProjectAuthorityInput!) {
    updateProjectAuthority(projectId: $projectId, input: $input) {
      id authority { taxAuthorityCode businessId serviceId configured qrEncryption publicKeyFingerprint baseUrl hasApiCredentials }
    }
  }
`),sr=D(`
  query Keys($id: ID!) {
    apiKeyScopes
    project(id: $id) {
      id name environment
      apiKeys(first: 200) {
        edges { node { id keyName clientId secretLast4 scopes status createdAt lastUsedAt rotatedAt revokedAt } }
      }
    }
  }
`),cr=D(`
  mutation CreateKey($input: CreateApiKeyInput!) {
    createApiKey(input: $input) { clientSecret key { id keyName clientId scopes } }
  }
`),lr=D(`
  mutation RotateKey($projectId: ID!, $keyId: ID!, $graceSeconds: Int) {
    rotateApiKey(projectId: $projectId, keyId: $keyId, graceSeconds: $graceSeconds) { clientSecret key { id keyName clientId } }
  }
`),dr=D(`
  mutation RevokeKey($projectId: ID!, $keyId: ID!) {
    revokeApiKey(projectId: $projectId, keyId: $keyId) { id status revokedAt }
  }
`),ur=D(`
  query Runs($id: ID!, $after: String) {
    project(id: $id) {
      id name authority { configured }
      certificationRuns(first: 20, after: $after) {
        edges { node { id status invoiceType issueDate irn failureReason createdAt finishedAt } }
        pageInfo { hasNextPage endCursor }
      }
    }
  }
`),pr=D(`
  mutation StartRun($input: StartCertificationRunInput!) {
    startCertificationRun(input: $input) { id status }
  }
`),hr=D(`
  query Run($id: ID!) {
    certificationRun(id: $id) {
      id projectId status invoiceType issueDate irn failureReason createdAt finishedAt
      temporal { workflowId runId uiUrl }
      steps { name status attempts startedAt finishedAt durationMs httpStatus nrsErrorId message }
    }
  }
`),fr=D(`
  subscription RunUpdated($id: ID!) {
    certificationRunUpdated(id: $id) {
      id projectId status invoiceType issueDate irn failureReason createdAt finishedAt
      temporal { workflowId runId uiUrl }
      steps { name status attempts startedAt finishedAt durationMs httpStatus nrsErrorId message }
    }
  }
`),gr=D(`
  query Usage($id: ID!, $from: String, $to: String, $keyId: ID) {
    project(id: $id) {
      id name
      apiKeys(first: 200) { edges { node { id keyName status } } }
      usage(from: $from, to: $to, keyId: $keyId) {
        from to total keyId
        byOperation { operation count }
        daily { date operation count }
      }
    }
  }
`),_r=D(`
  query Audit($org: ID, $action: String, $after: String) {
    auditActions
    auditLogs(organizationId: $org, action: $action, first: 25, after: $after) {
      edges { node { id action createdAt ip userAgent requestId hash prevHash actor { type id } target { type id } } }
      pageInfo { hasNextPage endCursor }
    }
  }
`),mr=D(`
  query ValidateInvoice($projectId: ID!, $input: ValidateInvoiceInput!) {
    validateInvoice(projectId: $projectId, input: $input) {
      valid schemaVersion ruleset
      errors { rule severity path loc message }
      warnings { rule severity path loc message }
    }
  }
`),yr=D(`
  mutation GenerateIrn($projectId: ID!, $input: GenerateIrnInput!) {
    generateIrn(projectId: $projectId, input: $input) { irn invoiceReference serviceId issueDate }
  }
`),vr=D(`
  query InvoiceQr($projectId: ID!, $input: InvoiceQrCodeInput!) {
    invoiceQrCode(projectId: $projectId, input: $input, png: true) { irn timestamp qrPayload encryption keyFingerprint qrPngBase64 }
  }
`),Ir=D(`
  query RenderInvoice($projectId: ID!, $input: RenderInvoiceInput!) {
    renderInvoice(projectId: $projectId, input: $input, pdf: true) { valid irn pdfBase64 }
  }
`);function L(t){const e=K(null);return Q(()=>{document.title=`${t.title} · einvoice`,e.current?.focus({preventScroll:!1})},[t.title]),n("section",{class:"page","aria-labelledby":"page-title",children:[n("div",{class:"page-head",children:[n("h1",{id:"page-title",tabIndex:-1,ref:e,children:t.title}),t.actions&&n("div",{class:"page-actions",children:t.actions})]}),t.lead&&n("p",{class:"lead",children:t.lead}),t.children]})}function B(t){return n("p",{class:"loading",role:"status","aria-live":"polite",children:[n("span",{class:"spinner","aria-hidden":"true"})," ",t.label??"Loading…"]})}function se(t){return n("div",{class:"empty",children:t.children})}function F(t){return t.error?n("div",{class:"alert error",role:"alert",children:[n("p",{children:bn(t.error)}),t.retry&&n("button",{type:"button",class:"secondary",onClick:t.retry,children:"Try again"})]}):null}function Ht(t){return n("div",{class:`alert ${t.kind??"ok"}`,role:"status",children:t.children})}let br=0;function Vt(t){const[e]=m(()=>`${t}-${++br}`);return e}function j({label:t,name:e,error:r,hint:i,...a}){const o=Vt(e),s=[i?`${o}-hint`:"",r?`${o}-error`:""].filter(Boolean).join(" ")||void 0;return n("div",{class:`field${r?" invalid":""}`,children:[n("label",{for:o,children:t}),n("input",{id:o,name:e,"aria-invalid":r?"true":void 0,"aria-describedby":s,...a}),i&&n("p",{class:"hint",id:`${o}-hint`,children:i}),r&&n("p",{class:"field-error",id:`${o}-error`,children:r})]})}function ue({label:t,name:e,error:r,children:i,...a}){const o=Vt(e);return n("div",{class:`field${r?" invalid":""}`,children:[n("label",{for:o,children:t}),n("select",{id:o,name:e,"aria-invalid":r?"true":void 0,"aria-describedby":r?`${o}-error`:void 0,...a,children:i}),r&&n("p",{class:"field-error",id:`${o}-error`,children:r})]})}function te(t){if(!t.error)return null;const e=t.error;if(e instanceof T&&e.code==="invalid"){const r=e.fieldErrors(),i=Object.entries(r).filter(([a])=>!t.fields?.includes(a));return n("div",{class:"alert error",role:"alert",children:[n("p",{children:e.message}),i.length>0&&n("ul",{children:i.map(([a,o])=>n("li",{children:[n("code",{children:a||"request"}),": ",o]},a))})]})}return n(F,{error:e})}function ne(t){return t instanceof T?t.fieldErrors():{}}function wt(t){const e=K(null);return Q(()=>{const r=e.current;r&&(t.open&&!r.open&&r.showModal(),!t.open&&r.open&&r.close())},[t.open]),n("dialog",{ref:e,"aria-labelledby":"confirm-title",onClose:t.onClose,onCancel:t.onClose,children:[n("h2",{id:"confirm-title",children:t.title}),t.children,n("div",{class:"dialog-actions",children:[n("button",{type:"button",class:"secondary",onClick:t.onClose,children:"Cancel"}),n("button",{type:"button",class:t.danger?"danger":"",disabled:t.busy,onClick:t.onConfirm,children:t.confirm})]})]})}function kt(t){const[e,r]=m("");return n("span",{class:"copy",children:[n("button",{type:"button",class:"secondary",onClick:async()=>{try{await navigator.clipboard.writeText(t.text),r("ok")}catch{r("fail")}},children:t.label??"Copy"}),n("span",{role:"status","aria-live":"polite",class:"copy-status",children:e==="ok"?"Copied":e==="fail"?"Copy failed: select the text and copy it":""})]})}function Z(t){return t?new Date(t).toLocaleString(void 0,{dateStyle:"medium",timeStyle:"short"}):"—"}function q(t){return n("span",{class:`badge ${t.tone??"info"}`,children:t.children})}const $r=[{path:"",label:"Overview"},{path:"/keys",label:"API keys"},{path:"/certification",label:"Certification"},{path:"/usage",label:"Usage"},{path:"/workbench",label:"Workbench"}],wr=[{path:"/projects",label:"Projects"},{path:"/audit",label:"Audit log"}],de="einvoice.org";function kr(t){const e=t.next;return e&&e.startsWith("/")&&!e.startsWith("//")?e:"/"}function Sr(){const t=U(),[e,r]=m(),[i,a]=m(!1),o=async d=>{d.preventDefault();const u=new FormData(d.currentTarget);a(!0),r(void 0);try{const l=await at(er,{input:{email:String(u.get("email")),password:String(u.get("password"))}});it(l.login.accessToken,l.login.expiresIn,l.login.user),t.route(kr(t.query),!0)}catch(l){r(l)}finally{a(!1)}},s=ne(e);return n("div",{class:"auth",children:n(L,{title:"Log in to einvoice",children:[n("form",{onSubmit:o,noValidate:!0,children:[n(j,{label:"Email",name:"email",type:"email",autoComplete:"email",required:!0,error:s.email}),n(j,{label:"Password",name:"password",type:"password",autoComplete:"current-password",required:!0,error:s.password}),n(te,{error:e,fields:["email","password"]}),n("button",{type:"submit",disabled:i,children:i?"Logging in…":"Log in"})]}),n("p",{children:["New here? ",n("a",{href:"/signup",children:"Create an account"})]})]})})}function jr(){const t=U(),[e,r]=m(),[i,a]=m(!1),[o,s]=m(""),[d,u]=m(!1),l=async p=>{p.preventDefault();const c=new FormData(p.currentTarget);a(!0),r(void 0);try{const h=await at(Zn,{input:{email:String(c.get("email")),password:String(c.get("password")),organizationName:String(c.get("organizationName")),organizationSlug:String(c.get("organizationSlug"))}});it(h.signup.accessToken,h.signup.expiresIn,h.signup.user),h.signup.organization?(localStorage.setItem(de,h.signup.organization.id),t.route(`/orgs/${h.signup.organization.id}/projects`,!0)):t.route("/",!0)}catch(h){r(h)}finally{a(!1)}},f=ne(e);return n("div",{class:"auth",children:n(L,{title:"Create your einvoice account",children:[n("form",{onSubmit:l,noValidate:!0,children:[n(j,{label:"Email",name:"email",type:"email",autoComplete:"email",required:!0,error:f.email}),n(j,{label:"Password",name:"password",type:"password",autoComplete:"new-password",required:!0,minLength:8,hint:"At least 8 characters.",error:f.password}),n(j,{label:"Organization name",name:"organizationName",required:!0,autoComplete:"organization",error:f.organizationName,onInput:p=>{d||s(Wt(p.currentTarget.value))}}),n(j,{label:"Organization slug",name:"organizationSlug",required:!0,value:o,hint:"Lower-case letters and digits in dash-separated groups, such as sango-supplies.",error:f.organizationSlug,onInput:p=>{u(!0),s(p.currentTarget.value)}}),n(te,{error:e,fields:["email","password","organizationName","organizationSlug"]}),n("button",{type:"submit",disabled:i,children:i?"Creating…":"Create account"})]}),n("p",{children:["Have an account? ",n("a",{href:"/login",children:"Log in"})]})]})})}function Wt(t){return t.toLowerCase().normalize("NFKD").replace(/[^a-z0-9]+/g,"-").replace(/^-+|-+$/g,"").slice(0,100)}function Cr(){const t=U(),e=J(()=>P(st),[]),[r,i]=m(),[a,o]=m(!1),[s,d]=m(""),u=async p=>{p.preventDefault();const c=new FormData(p.currentTarget);o(!0),i(void 0);try{const h=await P(nr,{input:{name:String(c.get("name")),slug:String(c.get("slug"))}});localStorage.setItem(de,h.createOrganization.id),t.route(`/orgs/${h.createOrganization.id}/projects`)}catch(h){i(h)}finally{o(!1)}},l=ne(r),f=e.data?.me.organizations.edges??[];return n(L,{title:"Organizations",lead:"An organization owns projects and their API keys. Switch between yours or create one.",children:[e.loading&&!e.data&&n(B,{}),n(F,{error:e.error,retry:e.reload}),e.data&&f.length===0&&n(se,{children:"You belong to no organization yet. Create one below."}),f.length>0&&n("ul",{class:"cards",children:f.map(({node:p})=>n("li",{class:"card",children:[n("a",{href:`/orgs/${p.id}/projects`,onClick:()=>localStorage.setItem(de,p.id),children:p.name}),n("span",{class:"muted",children:[" ",p.slug]})," ",n(q,{children:p.role.toLowerCase()})]},p.id))}),n("form",{onSubmit:u,class:"panel",noValidate:!0,children:[n("h2",{children:"New organization"}),n(j,{label:"Name",name:"name",required:!0,error:l.name,onInput:p=>d(Wt(p.currentTarget.value))}),n(j,{label:"Slug",name:"slug",required:!0,value:s,onInput:p=>d(p.currentTarget.value),error:l.slug}),n(te,{error:r,fields:["name","slug"]}),n("button",{type:"submit",disabled:a,children:a?"Creating…":"Create organization"})]})]})}function pe(t){const e=U(),r=`/projects/${t.projectId}`;return n(z,{children:[n("nav",{"aria-label":"Breadcrumb",class:"crumbs",children:[t.org&&n("a",{href:`/orgs/${t.org.id}/projects`,children:t.org.name}),t.org&&n("span",{"aria-hidden":"true",children:" / "}),n("span",{children:t.project??"Project"})]}),n("nav",{"aria-label":"Project",class:"tabs",children:$r.map(i=>n("a",{href:r+i.path,"aria-current":e.path===r+i.path?"page":void 0,children:i.label},i.path))})]})}function Qt(t){const e=U(),r=`/orgs/${t.orgId}`;return n("nav",{"aria-label":"Organization",class:"tabs",children:[wr.map(i=>n("a",{href:r+i.path,"aria-current":e.path===r+i.path?"page":void 0,children:i.label},i.path)),t.children]})}function Gt(t){const e=U(),i=J(()=>P(st),[]).data?.me.organizations.edges??[];return i.length<2?null:n("div",{class:"switcher",children:[n("label",{for:"org-switch",children:"Switch organization"}),n("select",{id:"org-switch",value:t.orgId,onChange:a=>{const o=a.currentTarget.value;localStorage.setItem(de,o),e.route(`/orgs/${o}/projects`)},children:i.map(({node:a})=>n("option",{value:a.id,children:a.name},a.id))})]})}function Ar(){const{params:t}=ee(),e=t.orgId,r=U(),i=J(()=>P(rr,{id:e}),[e]),[a,o]=m(),[s,d]=m(!1);Q(()=>localStorage.setItem(de,e),[e]);const u=i.data?.organization,l=async h=>{h.preventDefault();const g=new FormData(h.currentTarget);d(!0),o(void 0);try{const b=await P(ir,{input:{organizationId:e,name:String(g.get("name")),environment:g.get("environment")==="PRODUCTION"?"PRODUCTION":"SANDBOX"}});r.route(`/projects/${b.createProject.id}`)}catch(b){o(b)}finally{d(!1)}},f=ne(a),p=u?.projects.edges??[],c=u&&u.role!=="MEMBER";return n(L,{title:u?`${u.name}: projects`:"Projects",actions:n(Gt,{orgId:e}),children:[n(Qt,{orgId:e}),i.loading&&!i.data&&n(B,{label:"Loading projects…"}),n(F,{error:i.error,retry:i.reload}),u&&p.length===0&&n(se,{children:n("p",{children:"No projects yet. A project is one integration with NRS: start with a sandbox project to try the API."})}),p.length>0&&n("ul",{class:"cards","aria-label":"Projects",children:p.map(({node:h})=>n("li",{class:"card",children:[n("a",{href:`/projects/${h.id}`,children:h.name})," ",n(q,{tone:h.environment==="PRODUCTION"?"warn":"info",children:h.environment.toLowerCase()})," ",!h.authority.configured&&n(q,{tone:"bad",children:"not configured"}),n("div",{class:"muted small",children:["Created ",Z(h.createdAt)]})]},h.id))}),c&&n("form",{onSubmit:l,class:"panel",noValidate:!0,children:[n("h2",{children:"New project"}),n(j,{label:"Project name",name:"name",required:!0,error:f.name}),n(ue,{label:"Environment",name:"environment",error:f.environment,children:[n("option",{value:"SANDBOX",children:"Sandbox: provisioned at once, talks to the NRS sandbox"}),n("option",{value:"PRODUCTION",children:"Production: needs your NRS business settings"})]}),n(te,{error:a,fields:["name","environment"]}),n("button",{type:"submit",disabled:s,children:s?"Creating…":"Create project"})]})]})}function Dr(){const{params:t}=ee(),e=t.projectId,r=J(()=>P(or,{id:e}),[e]),i=r.data?.project;return n(L,{title:i?i.name:"Project",children:[n(pe,{projectId:e,org:i?.organization,project:i?.name}),r.loading&&!i&&n(B,{}),n(F,{error:r.error,retry:r.reload}),i&&n(z,{children:[n("dl",{class:"facts",children:[n("dt",{children:"Environment"}),n("dd",{children:n(q,{tone:i.environment==="PRODUCTION"?"warn":"info",children:i.environment.toLowerCase()})}),n("dt",{children:"Created"}),n("dd",{children:Z(i.createdAt)}),n("dt",{children:"Tax authority"}),n("dd",{children:i.authority.taxAuthorityCode}),n("dt",{children:"Business id"}),n("dd",{children:n("code",{children:i.authority.businessId??"—"})}),n("dt",{children:"Service id"}),n("dd",{children:n("code",{children:i.authority.serviceId??"—"})}),n("dt",{children:"Status"}),n("dd",{children:i.authority.configured?n(q,{tone:"ok",children:"configured"}):n(q,{tone:"bad",children:"not configured"})}),n("dt",{children:"API credentials"}),n("dd",{children:i.authority.hasApiCredentials?"stored (never shown)":"none"}),n("dt",{children:"QR encryption"}),n("dd",{children:i.authority.qrEncryption}),n("dt",{children:"Public key fingerprint"}),n("dd",{children:n("code",{class:"wrap",children:i.authority.publicKeyFingerprint??"—"})})]}),i.environment==="PRODUCTION"&&i.organization.role!=="MEMBER"&&n(Pr,{projectId:e,onSaved:r.reload}),i.environment==="SANDBOX"&&n("p",{class:"muted",children:"Sandbox projects are provisioned by einvoice and talk to the NRS sandbox stand-in: nothing to configure."})]})]})}const Rr=["taxAuthorityCode","businessId","serviceId","publicKey","certificate","apiKey","apiSecret","baseUrl","qrEncryption"];function Pr(t){const[e,r]=m(),[i,a]=m(!1),[o,s]=m(!1),d=async l=>{l.preventDefault();const f=l.currentTarget,p=new FormData(f),c=h=>{const g=String(p.get(h)??"").trim();return g===""?null:g};a(!0),r(void 0),s(!1);try{await P(ar,{projectId:t.projectId,input:{taxAuthorityCode:String(p.get("taxAuthorityCode")??"NRS"),businessId:String(p.get("businessId")??""),serviceId:String(p.get("serviceId")??""),publicKey:String(p.get("publicKey")??""),certificate:String(p.get("certificate")??""),apiKey:c("apiKey"),apiSecret:c("apiSecret"),baseUrl:c("baseUrl"),qrEncryption:c("qrEncryption")}});for(const h of["publicKey","certificate","apiKey","apiSecret"])f.elements.namedItem(h).value="";s(!0),t.onSaved()}catch(h){r(h)}finally{a(!1)}},u=ne(e);return n("form",{class:"panel",onSubmit:d,noValidate:!0,children:[n("h2",{children:"Tax authority settings"}),n("p",{class:"muted",children:"The values NRS issued your business. The key, certificate and API credentials are encrypted at rest and never shown again: to change one, enter them all anew."}),n(j,{label:"Tax authority",name:"taxAuthorityCode",value:"NRS",readOnly:!0,error:u.taxAuthorityCode}),n(j,{label:"Business id",name:"businessId",required:!0,error:u.businessId,hint:"The UUID NRS gave your business."}),n(j,{label:"Service id",name:"serviceId",required:!0,error:u.serviceId,hint:"8 letters or digits."}),n(j,{label:"Public key",name:"publicKey",type:"password",autoComplete:"off",required:!0,error:u.publicKey,hint:"From crypto_keys.txt: PEM, or base64 of it."}),n(j,{label:"Certificate",name:"certificate",type:"password",autoComplete:"off",required:!0,error:u.certificate}),n(j,{label:"NRS API key",name:"apiKey",type:"password",autoComplete:"off",error:u.apiKey,hint:"Given together with the API secret."}),n(j,{label:"NRS API secret",name:"apiSecret",type:"password",autoComplete:"off",error:u.apiSecret}),n(j,{label:"Base URL (optional)",name:"baseUrl",type:"url",error:u.baseUrl}),n(j,{label:"QR encryption (optional)",name:"qrEncryption",error:u.qrEncryption,hint:"Such as RSA-PKCS1-v1_5."}),n(te,{error:e,fields:Rr}),o&&n(Ht,{children:"Saved. The secrets are stored encrypted and cleared from this page."}),n("button",{type:"submit",disabled:i,children:i?"Saving…":"Save settings"})]})}function Nr(){const{params:t}=ee(),e=t.projectId,r=J(()=>P(sr,{id:e}),[e]),[i,a]=m(),[o,s]=m(),[d,u]=m(),[l,f]=m("3600"),[p,c]=m(!1),[h,g]=m(),b=r.data?.project,y=b?.apiKeys.edges??[],$=async()=>{if(o){c(!0),g(void 0);try{const _=await P(lr,{projectId:e,keyId:o.id,graceSeconds:Number(l)});a({keyName:_.rotateApiKey.key.keyName,clientId:_.rotateApiKey.key.clientId,secret:_.rotateApiKey.clientSecret,rotated:!0}),s(void 0),r.reload()}catch(_){g(_)}finally{c(!1)}}},v=async()=>{if(d){c(!0),g(void 0);try{await P(dr,{projectId:e,keyId:d.id}),u(void 0),r.reload()}catch(_){g(_)}finally{c(!1)}}};return n(L,{title:b?`${b.name}: API keys`:"API keys",children:[n(pe,{projectId:e,project:b?.name}),r.loading&&!b&&n(B,{label:"Loading keys…"}),n(F,{error:r.error,retry:r.reload}),i&&n(Tr,{r:i,onDone:()=>a(void 0)}),n(F,{error:h}),b&&y.length===0&&n(se,{children:"No API keys yet. Create one to call the API from your systems."}),y.length>0&&n("div",{class:"table-wrap",tabIndex:0,role:"region","aria-label":"API keys",children:n("table",{children:[n("caption",{class:"sr-only",children:"API keys"}),n("thead",{children:n("tr",{children:[n("th",{scope:"col",children:"Name"}),n("th",{scope:"col",children:"Client id"}),n("th",{scope:"col",children:"Secret"}),n("th",{scope:"col",children:"Status"}),n("th",{scope:"col",children:"Last used"}),n("th",{scope:"col",children:n("span",{class:"sr-only",children:"Actions"})})]})}),n("tbody",{children:y.map(({node:_})=>n("tr",{children:[n("th",{scope:"row",children:[_.keyName,n("div",{class:"muted small",children:_.scopes.length===r.data.apiKeyScopes.length?"all scopes":_.scopes.join(", ")})]}),n("td",{children:n("code",{children:_.clientId})}),n("td",{children:n("code",{children:["…",_.secretLast4]})}),n("td",{children:[n(q,{tone:_.status==="ACTIVE"?"ok":"bad",children:_.status.toLowerCase()}),_.rotatedAt&&n("div",{class:"muted small",children:["rotated ",Z(_.rotatedAt)]})]}),n("td",{children:Z(_.lastUsedAt)}),n("td",{class:"row-actions",children:_.status==="ACTIVE"&&n(z,{children:[n("button",{type:"button",class:"secondary",onClick:()=>s({id:_.id,name:_.keyName}),"aria-label":`Rotate ${_.keyName}`,children:"Rotate"}),n("button",{type:"button",class:"danger",onClick:()=>u({id:_.id,name:_.keyName}),"aria-label":`Revoke ${_.keyName}`,children:"Revoke"})]})})]},_.id))})]})}),r.data&&n(xr,{projectId:e,scopes:r.data.apiKeyScopes,onCreated:_=>{a(_),r.reload()}}),n(wt,{open:!!o,title:`Rotate ${o?.name??""}`,confirm:"Rotate key",busy:p,onConfirm:$,onClose:()=>s(void 0),children:[n("p",{children:"The key gets a new secret. The old one keeps working for the grace period, so your systems can switch without downtime."}),n(ue,{label:"Grace period for the old secret",name:"grace",value:l,onChange:_=>f(_.currentTarget.value),children:[n("option",{value:"0",children:"None: the old secret stops now"}),n("option",{value:"3600",children:"1 hour"}),n("option",{value:"86400",children:"1 day"}),n("option",{value:"604800",children:"7 days"})]})]}),n(wt,{open:!!d,title:`Revoke ${d?.name??""}?`,confirm:"Revoke key",danger:!0,busy:p,onConfirm:v,onClose:()=>u(void 0),children:n("p",{children:"Every request with this key is refused from now on. This cannot be undone."})})]})}function Tr(t){return n("section",{class:"panel secret","aria-labelledby":"secret-title",children:[n("h2",{id:"secret-title",tabIndex:-1,ref:e=>e?.focus(),children:[t.r.rotated?"New secret":"Your new key",": ",t.r.keyName]}),n("p",{class:"warning",role:"alert",children:"Copy the secret now and store it safely. It is shown only this once: einvoice keeps only a hash of it."}),n("dl",{class:"facts",children:[n("dt",{children:"Client id (X-Client-Id)"}),n("dd",{children:[n("code",{"data-testid":"client-id",children:t.r.clientId})," ",n(kt,{text:t.r.clientId,label:"Copy client id"})]}),n("dt",{children:"Client secret (X-Client-Secret)"}),n("dd",{children:[n("code",{"data-testid":"client-secret",class:"wrap",children:t.r.secret})," ",n(kt,{text:t.r.secret,label:"Copy secret"})]})]}),n("button",{type:"button",onClick:t.onDone,children:"I have stored the secret"})]})}function xr(t){const[e,r]=m(),[i,a]=m(!1),o=async d=>{d.preventDefault();const u=d.currentTarget,l=new FormData(u),f=l.getAll("scopes").map(String);a(!0),r(void 0);try{const p=await P(cr,{input:{projectId:t.projectId,keyName:String(l.get("keyName")),scopes:f.length?f:null}});u.reset(),t.onCreated({keyName:p.createApiKey.key.keyName,clientId:p.createApiKey.key.clientId,secret:p.createApiKey.clientSecret,rotated:!1})}catch(p){r(p)}finally{a(!1)}},s=ne(e);return n("form",{class:"panel",onSubmit:o,noValidate:!0,children:[n("h2",{children:"New API key"}),n(j,{label:"Key name",name:"keyName",required:!0,error:s.keyName,hint:"Such as erp-production."}),n("fieldset",{children:[n("legend",{children:"Scopes (none ticked: every scope)"}),n("div",{class:"checks",children:t.scopes.map(d=>n("label",{class:"check",children:[n("input",{type:"checkbox",name:"scopes",value:d})," ",n("code",{children:d})]},d))}),s.scopes&&n("p",{class:"field-error",children:s.scopes})]}),n(te,{error:e,fields:["keyName","scopes"]}),n("button",{type:"submit",disabled:i,children:i?"Creating…":"Create key"})]})}const Je=t=>t==="PASSED"?"ok":t==="FAILED"||t==="CANCELLED"?"bad":t==="RETRYING"?"warn":"info";function Er(){const{params:t}=ee(),e=t.projectId,[r,i]=m([]),a=r[r.length-1],o=J(()=>P(ur,{id:e,after:a??null}),[e,a]),s=o.data?.project,d=s?.certificationRuns.edges??[];return n(L,{title:s?`${s.name}: certification`:"Certification",children:[n(pe,{projectId:e,project:s?.name}),n("p",{class:"lead",children:"A certification run is a smoke test of this project against NRS, executed as a durable workflow. Watch its steps arrive live."}),s&&n(Or,{projectId:e,configured:s.authority.configured}),n("h2",{children:"Past runs"}),o.loading&&!s&&n(B,{label:"Loading runs…"}),n(F,{error:o.error,retry:o.reload}),s&&d.length===0&&n(se,{children:"No runs yet."}),d.length>0&&n("div",{class:"table-wrap",tabIndex:0,role:"region","aria-label":"Certification runs",children:n("table",{children:[n("caption",{class:"sr-only",children:"Certification runs"}),n("thead",{children:n("tr",{children:[n("th",{scope:"col",children:"Run"}),n("th",{scope:"col",children:"Status"}),n("th",{scope:"col",children:"Type"}),n("th",{scope:"col",children:"Issue date"}),n("th",{scope:"col",children:"Started"})]})}),n("tbody",{children:d.map(({node:u})=>n("tr",{children:[n("th",{scope:"row",children:[n("a",{href:`/projects/${e}/certification/${u.id}`,children:u.id.slice(0,8)}),u.failureReason&&n("div",{class:"muted small",children:u.failureReason})]}),n("td",{children:n(q,{tone:Je(u.status),children:u.status.toLowerCase()})}),n("td",{children:u.invoiceType}),n("td",{children:u.issueDate}),n("td",{children:Z(u.createdAt)})]},u.id))})]})}),n("div",{class:"pager",children:[r.length>0&&n("button",{type:"button",class:"secondary",onClick:()=>i(r.slice(0,-1)),children:"Newer runs"}),s?.certificationRuns.pageInfo.hasNextPage&&n("button",{type:"button",class:"secondary",onClick:()=>i([...r,s.certificationRuns.pageInfo.endCursor]),children:"Older runs"})]})]})}function qr(){return new Date().toISOString().slice(0,10)}function Or(t){const e=U(),[r,i]=m(),[a,o]=m(!1),[s,d]=m(),u=async f=>{f.preventDefault();const p=new FormData(f.currentTarget),c=String(p.get("invoicePayload")??"").trim();let h=null;if(d(void 0),c)try{h=JSON.parse(c)}catch(g){d(`Not valid JSON: ${g.message}`);return}o(!0),i(void 0);try{const g=await P(pr,{input:{projectId:t.projectId,invoiceType:String(p.get("invoiceType")),issueDate:String(p.get("issueDate")),invoicePayload:h}});e.route(`/projects/${t.projectId}/certification/${g.startCertificationRun.id}`)}catch(g){i(g)}finally{o(!1)}},l=ne(r);return n("form",{class:"panel",onSubmit:u,noValidate:!0,children:[n("h2",{children:"Start a run"}),!t.configured&&n("p",{class:"warning",children:"This project has no tax authority settings yet: configure it on the Overview tab first."}),n("div",{class:"row",children:[n(ue,{label:"Invoice type",name:"invoiceType",error:l.invoiceType,children:[n("option",{value:"B2B",children:"B2B: to a business"}),n("option",{value:"B2C",children:"B2C: to a consumer"}),n("option",{value:"B2G",children:"B2G: to a government body"})]}),n(j,{label:"Issue date",name:"issueDate",type:"date",value:qr(),required:!0,error:l.issueDate})]}),n("div",{class:`field${s||l.invoicePayload?" invalid":""}`,children:[n("label",{for:"run-payload",children:"Invoice JSON (optional)"}),n("textarea",{id:"run-payload",name:"invoicePayload",rows:4,"aria-describedby":"run-payload-hint",spellcheck:!1}),n("p",{class:"hint",id:"run-payload-hint",children:"Leave empty to certify a sample invoice of the chosen type."}),(s||l.invoicePayload)&&n("p",{class:"field-error",children:s??l.invoicePayload})]}),n(te,{error:r,fields:["invoiceType","issueDate","invoicePayload"]}),n("button",{type:"submit",disabled:a,children:a?"Starting…":"Start run"})]})}function Ur(){const{params:t}=ee(),{projectId:e,runId:r}=t,[i,a]=m(),[o,s]=m(),[d,u]=m(!1);return Q(()=>{let l;return a(void 0),s(void 0),P(hr,{id:r}).then(f=>{a(f.certificationRun),!["PASSED","FAILED","CANCELLED"].includes(f.certificationRun.status)&&(u(!0),l=An(fr,{id:r},c=>a(c.certificationRunUpdated),c=>{u(!1),c&&s(c)}))},s),()=>l?.()},[r]),n(L,{title:`Certification run ${r.slice(0,8)}`,children:[n(pe,{projectId:e}),n("p",{children:n("a",{href:`/projects/${e}/certification`,children:"All runs"})}),!i&&!o&&n(B,{label:"Loading the run…"}),n(F,{error:o}),i&&n(z,{children:[n("dl",{class:"facts",children:[n("dt",{children:"Status"}),n("dd",{children:[n("span",{"data-testid":"run-status",children:n(q,{tone:Je(i.status),children:i.status.toLowerCase()})})," ",d&&n("span",{class:"muted small",role:"status",children:"live"})]}),n("dt",{children:"Invoice type"}),n("dd",{children:i.invoiceType}),n("dt",{children:"Issue date"}),n("dd",{children:i.issueDate}),n("dt",{children:"IRN"}),n("dd",{children:n("code",{children:i.irn??"—"})}),i.failureReason&&n(z,{children:[n("dt",{children:"Why it failed"}),n("dd",{children:i.failureReason})]}),n("dt",{children:"Workflow"}),n("dd",{children:i.temporal.uiUrl?n("a",{href:i.temporal.uiUrl,target:"_blank",rel:"noopener noreferrer",children:[i.temporal.workflowId," in the Temporal UI"]}):n("code",{children:i.temporal.workflowId})})]}),n("h2",{children:"Steps"}),i.steps.length===0&&n(se,{children:"No step has started yet."}),n("ol",{class:"steps","aria-live":"polite",children:i.steps.map(l=>n("li",{class:"step",children:n("details",{children:[n("summary",{children:[n(q,{tone:Je(l.status),children:l.status.toLowerCase()})," ",n("strong",{children:l.name}),l.durationMs!=null&&n("span",{class:"muted small",children:[" ",l.durationMs," ms"]})]}),n("dl",{class:"facts small",children:[n("dt",{children:"Attempts"}),n("dd",{children:l.attempts}),n("dt",{children:"Started"}),n("dd",{children:Z(l.startedAt)}),n("dt",{children:"Finished"}),n("dd",{children:Z(l.finishedAt)}),n("dt",{children:"HTTP status"}),n("dd",{children:l.httpStatus??"—"}),n("dt",{children:"NRS error id"}),n("dd",{children:l.nrsErrorId??"—"}),n("dt",{children:"Message"}),n("dd",{children:l.message||"—"})]})]})},l.name))})]})]})}const Se=["#1d4ed8","#b45309","#047857","#7c3aed","#be123c","#0e7490","#4d7c0f","#9f1239"];function Te(t){return t.toISOString().slice(0,10)}function Lr(){const{params:t}=ee(),e=t.projectId,[r,i]=m(()=>Te(new Date(Date.now()-29*864e5))),[a,o]=m(()=>Te(new Date)),[s,d]=m(""),u=J(()=>P(gr,{id:e,from:r||null,to:a||null,keyId:s||null}),[e,r,a,s]),l=u.data?.project,f=l?.usage;return n(L,{title:l?`${l.name}: usage`:"Usage",children:[n(pe,{projectId:e,project:l?.name}),n("form",{class:"filters",onSubmit:p=>p.preventDefault(),"aria-label":"Usage filters",children:[n(ue,{label:"API key",name:"keyId",value:s,onChange:p=>d(p.currentTarget.value),children:[n("option",{value:"",children:"All keys"}),l?.apiKeys.edges.map(({node:p})=>n("option",{value:p.id,children:[p.keyName,p.status==="REVOKED"?" (revoked)":""]},p.id))]}),n(j,{label:"From",name:"from",type:"date",value:r,onChange:p=>i(p.currentTarget.value)}),n(j,{label:"To",name:"to",type:"date",value:a,onChange:p=>o(p.currentTarget.value)}),n("button",{type:"button",class:"secondary",onClick:u.reload,children:"Refresh"})]}),u.loading&&!f&&n(B,{label:"Loading usage…"}),n(F,{error:u.error,retry:u.reload}),f&&n(z,{children:[n("p",{children:[n("strong",{"data-testid":"usage-total",children:f.total})," calls from ",f.from," to ",f.to,u.loading&&n("span",{class:"muted small",children:" (updating…)"})]}),f.total===0?n(se,{children:"No calls in this period. Calls made with the project's API keys show here, per operation and day."}):n(Kr,{from:f.from,to:f.to,daily:f.daily,operations:f.byOperation.map(p=>p.operation)}),f.byOperation.length>0&&n("div",{class:"table-wrap",tabIndex:0,role:"region","aria-label":"Calls per operation",children:n("table",{children:[n("caption",{children:"Calls per operation"}),n("thead",{children:n("tr",{children:[n("th",{scope:"col",children:"Operation"}),n("th",{scope:"col",class:"num",children:"Calls"})]})}),n("tbody",{children:f.byOperation.map(p=>n("tr",{children:[n("th",{scope:"row",children:n("code",{children:p.operation})}),n("td",{class:"num",children:p.count})]},p.operation))})]})})]})]})}function Kr(t){const e=[];for(let p=new Date(`${t.from}T00:00:00Z`);Te(p)<=t.to&&e.length<400;p=new Date(p.getTime()+864e5))e.push(Te(p));const r=[...t.operations].sort(),i=new Map;for(const p of t.daily)i.has(p.date)||i.set(p.date,new Map),i.get(p.date).set(p.operation,p.count);const a=e.map(p=>[...i.get(p)?.values()??[]].reduce((c,h)=>c+h,0)),o=Math.max(1,...a),s=720,d=220,u=28,l=(s-u)/e.length,f=e.map((p,c)=>a[c]?`${p}: ${a[c]}`:"").filter(Boolean).join("; ");return n("figure",{class:"chart",children:[n("svg",{viewBox:`0 0 ${s} ${d+20}`,role:"img","aria-label":`Calls per day. ${f}`,"data-testid":"usage-chart",children:[n("line",{x1:u,y1:d,x2:s,y2:d,class:"axis"}),n("text",{x:u-4,y:12,class:"tick","text-anchor":"end",children:o}),n("text",{x:u-4,y:d,class:"tick","text-anchor":"end",children:"0"}),e.map((p,c)=>{let h=d;return n("g",{children:[r.map((g,b)=>{const y=i.get(p)?.get(g)??0;if(!y)return null;const $=y/o*(d-16);return h-=$,n("rect",{x:u+c*l+1,y:h,width:Math.max(1,l-2),height:$,fill:Se[b%Se.length],children:n("title",{children:[p," ",g,": ",y]})},g)}),(c===0||c===e.length-1||e.length<=14&&c%2===0)&&n("text",{x:u+c*l+l/2,y:d+14,class:"tick","text-anchor":"middle",children:p.slice(5)})]},p)})]}),n("figcaption",{children:n("ul",{class:"legend",children:r.map((p,c)=>n("li",{children:[n("svg",{width:"12",height:"12","aria-hidden":"true",children:n("rect",{width:"12",height:"12",fill:Se[c%Se.length]})})," ",p]},p))})})]})}function zr(){const{params:t}=ee(),e=t.orgId,[r,i]=m(""),[a,o]=m([]),s=a[a.length-1],d=J(()=>P(_r,{org:e,action:r||null,after:s??null}),[e,r,s]),u=d.data?.auditLogs.edges??[];return n(L,{title:"Audit log",actions:n(Gt,{orgId:e}),lead:"Every change made in this organization, newest first. Entries are hash-chained, so tampering is detectable.",children:[n(Qt,{orgId:e}),n("form",{class:"filters",onSubmit:l=>l.preventDefault(),"aria-label":"Audit filters",children:n(ue,{label:"Action",name:"action",value:r,onChange:l=>{i(l.currentTarget.value),o([])},children:[n("option",{value:"",children:"All actions"}),d.data?.auditActions.map(l=>n("option",{value:l,children:l},l))]})}),d.loading&&!d.data&&n(B,{label:"Loading the audit log…"}),n(F,{error:d.error,retry:d.reload}),d.data&&u.length===0&&n(se,{children:["No entries",r?` for ${r}`:"","."]}),u.length>0&&n("div",{class:"table-wrap",tabIndex:0,role:"region","aria-label":"Audit entries",children:n("table",{"data-testid":"audit-table",children:[n("caption",{class:"sr-only",children:"Audit entries"}),n("thead",{children:n("tr",{children:[n("th",{scope:"col",children:"When"}),n("th",{scope:"col",children:"Action"}),n("th",{scope:"col",children:"Actor"}),n("th",{scope:"col",children:"Target"}),n("th",{scope:"col",children:"From"}),n("th",{scope:"col",children:"Hash"})]})}),n("tbody",{children:u.map(({node:l})=>n("tr",{children:[n("td",{children:Z(l.createdAt)}),n("th",{scope:"row",children:n("code",{children:l.action})}),n("td",{children:[l.actor.type," ",n("code",{class:"small",children:l.actor.id.slice(0,8)})]}),n("td",{children:[l.target.type," ",n("code",{class:"small",children:l.target.id.slice(0,8)})]}),n("td",{class:"small",children:[l.ip,n("div",{class:"muted",children:l.requestId.slice(0,8)})]}),n("td",{children:n("code",{class:"small",title:`previous ${l.prevHash}`,children:l.hash.slice(0,12)})})]},l.id))})]})}),n("div",{class:"pager",children:[a.length>0&&n("button",{type:"button",class:"secondary",onClick:()=>o(a.slice(0,-1)),children:"Newer entries"}),d.data?.auditLogs.pageInfo.hasNextPage&&n("button",{type:"button",class:"secondary",onClick:()=>o([...a,d.data.auditLogs.pageInfo.endCursor]),children:"Older entries"})]})]})}function Jt(t){return t.map(String).join("\0")}function Br(t){const e=[],r=new Map,i=(a,o,s,d,u)=>{const l=e.length;if(Array.isArray(a)&&a.length>0)e.push(`${s}${d}[`),a.forEach((f,p)=>i(f,[...o,p],`${s}  `,"",p<a.length-1?",":"")),e.push(`${s}]${u}`);else if(a&&typeof a=="object"&&!Array.isArray(a)&&Object.keys(a).length>0){const f=Object.entries(a);e.push(`${s}${d}{`),f.forEach(([p,c],h)=>i(c,[...o,p],`${s}  `,`${JSON.stringify(p)}: `,h<f.length-1?",":"")),e.push(`${s}}${u}`)}else e.push(`${s}${d}${JSON.stringify(a)}${u}`);r.set(Jt(o),[l,e.length-1])};return i(t,[],"","",""),{lines:e,spans:r}}function Fr(t,e){for(let r=e.length;r>=0;r--){const i=t.get(Jt(e.slice(0,r)));if(i)return r===e.length?i:[i[0],i[0]]}}function Mr(t){const{lines:e,spans:r}=Br(t.value),i=new Map;for(const a of t.marks){const o=Fr(r,a.path);if(o)for(let s=o[0];s<=o[1];s++)i.has(s)||i.set(s,[]),s===o[0]&&i.get(s).push(a)}return n("div",{class:"json",role:"region","aria-label":"Invoice JSON with problems highlighted",tabIndex:0,children:n("ol",{children:e.map((a,o)=>{const s=i.get(o);return n("li",{class:s?"marked":void 0,id:s?.[0]?`line-${s[0].id}`:void 0,children:[n("code",{children:a}),s&&s.length>0&&n("span",{class:"sr-only",children:[" problem: ",s.map(d=>d.label).join("; ")]})]},o)})})})}function Ke(t){if(!t.trim())return{error:"Paste or upload an invoice first."};try{const e=JSON.parse(t);return!e||typeof e!="object"||Array.isArray(e)?{error:"The invoice must be a JSON object."}:{value:e}}catch(e){return{error:`Not valid JSON: ${e.message}`}}}function St(t){const e=t.map(r=>typeof r=="number"?r:String(r));return e[0]==="input"&&e[1]==="payload"?e.slice(2):e}function Hr(){const{params:t}=ee(),e=t.projectId,[r,i]=m(""),[a,o]=m("B2B"),[s,d]=m(),[u,l]=m(),[f,p]=m(),[c,h]=m(),[g,b]=m(),[y,$]=m(""),[v,_]=m(),[E,O]=m(""),[M,re]=m("");Q(()=>()=>{g&&URL.revokeObjectURL(g)},[g]);const G=I=>{i(I);const{value:k}=Ke(I);k&&(typeof k.issue_date=="string"&&re(k.issue_date),typeof k.irn=="string"&&O(k.irn.split("-").slice(0,-2).join("-")||k.irn),typeof k.invoice_kind=="string"&&o(k.invoice_kind.toUpperCase()))},S=async(I,k)=>{$(I),_(void 0);try{await k()}catch(V){_(V)}finally{$("")}},N=()=>{const{value:I,error:k}=Ke(r);d(k),I&&S("validate",async()=>{const V=await P(mr,{projectId:e,input:{invoiceTypeCode:a,taxAuthorityCode:"NRS",payload:I}});l({value:I,report:V.validateInvoice})})},H=I=>{I.preventDefault(),S("irn",async()=>{const k=await P(yr,{projectId:e,input:{invoiceReference:E,invoiceTypeCode:a,taxAuthorityCode:"NRS",issueDate:M}});p(k.generateIrn);const V=await P(vr,{projectId:e,input:{irn:k.generateIrn.irn}});h(V.invoiceQrCode)})},Xt=()=>{const{value:I,error:k}=Ke(r);d(k),I&&S("render",async()=>{const V=await P(Ir,{projectId:e,input:{invoiceType:a,payload:I}});if(!V.renderInvoice.pdfBase64)throw new Error("The server answered no PDF.");const en=Uint8Array.from(atob(V.renderInvoice.pdfBase64),tn=>tn.charCodeAt(0));b(URL.createObjectURL(new Blob([en],{type:"application/pdf"})))})},Zt=async I=>{const k=I.currentTarget.files?.[0];if(k){if(k.size>9e5){d("The file is larger than the 900 KB an invoice may be.");return}G(await k.text())}},qe=u?[...u.report.errors,...u.report.warnings]:[],ct=ne(v);return n(L,{title:"Invoice workbench",lead:"Paste or upload an invoice as NRS expects it, check it against NRS's schema and rules, issue its IRN and QR code, and preview its PDF.",children:[n(pe,{projectId:e}),n("div",{class:"workbench",children:[n("div",{class:"panel",children:[n("div",{class:"row",children:[n(ue,{label:"Invoice kind",name:"kind",value:a,onChange:I=>o(I.currentTarget.value),children:[n("option",{value:"B2B",children:"B2B"}),n("option",{value:"B2C",children:"B2C"}),n("option",{value:"B2G",children:"B2G"})]}),n("div",{class:"field",children:[n("label",{for:"wb-file",children:"Upload a JSON file"}),n("input",{id:"wb-file",type:"file",accept:"application/json,.json",onChange:Zt})]})]}),n("div",{class:`field${s?" invalid":""}`,children:[n("label",{for:"wb-json",children:"Invoice JSON"}),n("textarea",{id:"wb-json",rows:16,spellcheck:!1,value:r,"aria-invalid":s?"true":void 0,"aria-describedby":s?"wb-json-error":void 0,onInput:I=>G(I.currentTarget.value)}),s&&n("p",{class:"field-error",id:"wb-json-error",children:s})]}),n("div",{class:"buttons",children:[n("button",{type:"button",onClick:N,disabled:!!y,children:y==="validate"?"Validating…":"Validate"}),n("button",{type:"button",class:"secondary",onClick:Xt,disabled:!!y,children:y==="render"?"Rendering…":"Preview PDF"})]}),n(te,{error:v,fields:["invoiceReference","issueDate"]})]}),u&&n("section",{class:"panel","aria-labelledby":"wb-result",children:[n("h2",{id:"wb-result",tabIndex:-1,ref:I=>I?.focus(),children:[u.report.valid?n(q,{tone:"ok",children:"valid"}):n(q,{tone:"bad",children:"invalid"})," ",u.report.errors.length," errors, ",u.report.warnings.length," warnings"]}),n("p",{class:"muted small",children:["Schema ",u.report.schemaVersion,", rules ",u.report.ruleset]}),qe.length>0&&n("ol",{class:"issues","data-testid":"issues",children:qe.map((I,k)=>{const V=St(I.loc);return n("li",{class:I.severity,children:[n(q,{tone:I.severity==="error"?"bad":"warn",children:I.severity})," ",n("code",{children:V.join(".")||"(invoice)"}),": ",I.message," ",n("span",{class:"muted small",children:I.rule})," ",n("a",{href:`#line-issue-${k}`,children:"show"})]},k)})}),n(Mr,{value:u.value,marks:qe.map((I,k)=>({path:St(I.loc),label:I.message,id:`issue-${k}`}))})]}),n("form",{class:"panel",onSubmit:H,noValidate:!0,children:[n("h2",{children:"IRN and QR code"}),n("div",{class:"row",children:[n(j,{label:"Invoice reference",name:"invoiceReference",value:E,onInput:I=>O(I.currentTarget.value),error:ct.invoiceReference}),n(j,{label:"Issue date",name:"issueDate",type:"date",value:M,onInput:I=>re(I.currentTarget.value),error:ct.issueDate})]}),n("button",{type:"submit",disabled:!!y,children:y==="irn"?"Generating…":"Generate IRN and QR"}),f&&n(Ht,{children:["IRN ",n("code",{"data-testid":"irn",children:f.irn})]}),c&&n("div",{class:"qr",children:[c.qrPngBase64&&n("img",{src:`data:image/png;base64,${c.qrPngBase64}`,alt:`QR code of ${c.irn}`,width:180,height:180}),n("p",{class:"small",children:["Encrypted payload (",c.encryption,", key ",c.keyFingerprint.slice(0,16),"…):"]}),n("code",{class:"wrap small",children:c.qrPayload})]})]}),g&&n("section",{class:"panel","aria-labelledby":"wb-pdf",children:[n("h2",{id:"wb-pdf",children:"PDF preview"}),n("iframe",{src:g,title:"Invoice PDF preview",class:"pdf","data-testid":"pdf"}),n("p",{children:n("a",{href:g,download:"invoice.pdf",children:"Download the PDF"})})]})]})]})}function Yt(t){return n(L,{title:t.error?"Something went wrong":"Page not found",children:[t.error?n(F,{error:t.error}):n("p",{children:"There is nothing at this address."}),n("p",{children:n("a",{href:"/",children:"Go to your projects"})})]})}const Vr=["/login","/signup"];function Wr(){return n(be,{children:n(Qr,{})})}function Qr(){const t=wn(X),e=U();Q(()=>{t.status==="unknown"&&Ee()},[t.status]);const r=Vr.includes(e.path);return Q(()=>{if(t.status==="signedOut"&&!r){const i=e.url!=="/"?`?next=${encodeURIComponent(e.url)}`:"";e.route(`/login${i}`,!0)}},[t.status,r,e.url]),t.status==="unknown"?n("main",{id:"main",class:"center",children:n(B,{label:"Signing you in…"})}):r||t.status!=="signedIn"?n("main",{id:"main",class:"center",children:n(He,{children:[n(x,{path:"/login",component:Sr}),n(x,{path:"/signup",component:jr}),n(x,{default:!0,component:()=>n(B,{})})]})}):n(Yr,{email:t.user?.email??"",children:n(He,{children:[n(x,{path:"/",component:Gr}),n(x,{path:"/orgs",component:Cr}),n(x,{path:"/orgs/:orgId/projects",component:Ar}),n(x,{path:"/orgs/:orgId/audit",component:zr}),n(x,{path:"/projects/:projectId",component:Dr}),n(x,{path:"/projects/:projectId/keys",component:Nr}),n(x,{path:"/projects/:projectId/certification",component:Er}),n(x,{path:"/projects/:projectId/certification/:runId",component:Ur}),n(x,{path:"/projects/:projectId/usage",component:Lr}),n(x,{path:"/projects/:projectId/workbench",component:Hr}),n(x,{default:!0,component:Yt})]})})}function Gr(){const t=U(),e=J(()=>P(st),[]);return Q(()=>{const r=e.data?.me.organizations.edges.map(o=>o.node.id)??[];if(!e.data)return;const i=localStorage.getItem(de),a=r.find(o=>o===i)??r[0];t.route(a?`/orgs/${a}/projects`:"/orgs",!0)},[e.data]),e.error?n(Yt,{error:e.error}):n(B,{})}async function Jr(t){Cn();try{await at(tr,{})}catch{}ot(),t("/login")}function Yr(t){const e=U();return n(z,{children:[n("a",{class:"skip",href:"#main",children:"Skip to content"}),n("header",{class:"top",children:[n("a",{class:"brand",href:"/",children:"einvoice"}),n("nav",{"aria-label":"Account",class:"account",children:[n("a",{href:"/orgs","aria-current":e.path==="/orgs"?"page":void 0,children:"Organizations"}),n("span",{class:"email",title:t.email,children:t.email}),n("button",{type:"button",class:"secondary",onClick:()=>{Jr(e.route)},children:"Log out"})]})]}),n("main",{id:"main",children:t.children})]})}ln(n(Wr,{}),document.getElementById("app"));
