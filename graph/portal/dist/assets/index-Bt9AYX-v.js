var ye,w,jt,Y,lt,Ct,At,Oe,je,ge,Dt,Ye,ze,Be,Rt,De={},Re=[],on=/acit|ex(?:s|g|n|p|$)|rph|grid|ows|mnc|ntw|ine[ch]|zoo|^ord|itera/i,ve=Array.isArray;function W(n,e){for(var r in e)n[r]=e[r];return n}function Xe(n){n&&n.parentNode&&n.parentNode.removeChild(n)}function ie(n,e,r){var i,a,o,s={};for(o in e)o=="key"?i=e[o]:o=="ref"?a=e[o]:s[o]=e[o];if(arguments.length>2&&(s.children=arguments.length>3?ye.call(arguments,2):r),typeof n=="function"&&n.defaultProps!=null)for(o in n.defaultProps)s[o]===void 0&&(s[o]=n.defaultProps[o]);return _e(n,s,i,a,null)}function _e(n,e,r,i,a){var o={type:n,props:e,key:r,ref:i,__k:null,__:null,__b:0,__e:null,__c:null,constructor:void 0,__v:a??++jt,__i:-1,__u:0};return a==null&&w.vnode!=null&&w.vnode(o),o}function F(n){return n.children}function Ce(n,e){this.props=n,this.context=e}function oe(n,e){if(e==null)return n.__?oe(n.__,n.__i+1):null;for(var r;e<n.__k.length;e++)if((r=n.__k[e])!=null&&r.__e!=null)return r.__e;return typeof n.type=="function"?oe(n):null}function an(n){if(n.__P&&n.__d){var e=n.__v,r=e.__e,i=[],a=[],o=W({},e);o.__v=e.__v+1,w.vnode&&w.vnode(o),Ze(n.__P,o,e,n.__n,n.__P.namespaceURI,32&e.__u?[r]:null,i,r??oe(e),!!(32&e.__u),a),o.__v=e.__v,o.__.__k[o.__i]=o,qt(i,o,a),e.__e=e.__=null,o.__e!=r&&Pt(o)}}function Pt(n){if((n=n.__)!=null&&n.__c!=null)return n.__e=n.__c.base=null,n.__k.some(function(e){if(e!=null&&e.__e!=null)return n.__e=n.__c.base=e.__e}),Pt(n)}function Fe(n){(!n.__d&&(n.__d=!0)&&Y.push(n)&&!Pe.__r++||lt!=w.debounceRendering)&&((lt=w.debounceRendering)||Ct)(Pe)}function Pe(){try{for(var n,e=1;Y.length;)Y.length>e&&Y.sort(At),n=Y.shift(),e=Y.length,an(n)}finally{Y.length=Pe.__r=0}}function Nt(n,e,r,i,a,o,s,d,u,l,h){var p,c,f,g,b,I,$=i&&i.__k||Re,y=e.length;for(u=sn(r,e,$,u,y),p=0;p<y;p++)(f=r.__k[p])!=null&&(c=f.__i!=-1&&$[f.__i]||De,f.__i=p,I=Ze(n,f,c,a,o,s,d,u,l,h),g=f.__e,f.ref&&c.ref!=f.ref&&(c.ref&&et(c.ref,null,f),h.push(f.ref,f.__c||g,f)),b==null&&g!=null&&(b=g),4&f.__u?(u=Tt(f,u,n),c.__e&&(c.__e=null)):typeof f.type=="function"&&I!==void 0?u=I:g&&(u=g.nextSibling),f.__u&=-7);return r.__e=b,u}function sn(n,e,r,i,a){var o,s,d,u,l,h=r.length,p=h,c=0;for(n.__k=new Array(a),o=0;o<a;o++)(s=e[o])!=null&&typeof s!="boolean"&&typeof s!="function"?(typeof s=="string"||typeof s=="number"||typeof s=="bigint"||s.constructor==String?s=n.__k[o]=_e(null,s,null,null,null):ve(s)?s=n.__k[o]=_e(F,{children:s},null,null,null):s.constructor===void 0&&s.__b>0?s=n.__k[o]=_e(s.type,s.props,s.key,s.ref?s.ref:null,s.__v):n.__k[o]=s,u=o+c,s.__=n,s.__b=n.__b+1,d=null,(l=s.__i=cn(s,r,u,p))!=-1&&(p--,(d=r[l])&&(d.__u|=2)),d==null||d.__v==null?(l==-1&&(a>h?c--:a<h&&c++),typeof s.type!="function"&&(s.__u|=4)):l!=u&&(l==u-1?c--:l==u+1?c++:(l>u?c--:c++,s.__u|=4))):n.__k[o]=null;if(p)for(o=0;o<h;o++)(d=r[o])!=null&&(2&d.__u)==0&&(d.__e==i&&(i=oe(d)),Lt(d,d));return i}function Tt(n,e,r){var i,a;if(typeof n.type=="function"){for(i=n.__k,a=0;i&&a<i.length;a++)i[a]&&(i[a].__=n,e=Tt(i[a],e,r));return e}n.__e!=e&&(e&&n.type&&!e.parentNode&&(e=oe(n)),e=r.insertBefore(n.__e,e||null));do e=e&&e.nextSibling;while(e!=null&&e.nodeType==8);return e}function xt(n,e){return e=e||[],n==null||typeof n=="boolean"||(ve(n)?n.some(function(r){xt(r,e)}):e.push(n)),e}function cn(n,e,r,i){var a,o,s,d=n.key,u=n.type,l=e[r],h=l!=null&&(2&l.__u)==0;if(l===null&&d==null||h&&d==l.key&&u==l.type)return r;if(i>(h?1:0)){for(a=r-1,o=r+1;a>=0||o<e.length;)if((l=e[s=a>=0?a--:o++])!=null&&(2&l.__u)==0&&d==l.key&&u==l.type)return s}return-1}function dt(n,e,r){e[0]=="-"?n.setProperty(e,r??""):n[e]=r==null?"":typeof r!="number"||on.test(e)?r:r+"px"}function $e(n,e,r,i,a){var o,s;e:if(e=="style")if(typeof r=="string")n.style.cssText=r;else{if(typeof i=="string"&&(n.style.cssText=i=""),i)for(e in i)r&&e in r||dt(n.style,e,"");if(r)for(e in r)i&&r[e]==i[e]||dt(n.style,e,r[e])}else if(e[0]=="o"&&e[1]=="n")o=e!=(e=e.replace(Dt,"$1")),s=e.toLowerCase(),e=s in n||e=="onFocusOut"||e=="onFocusIn"?s.slice(2):e.slice(2),n.l||(n.l={}),n.l[e+o]=r,r?i?r[ge]=i[ge]:(r[ge]=Ye,n.addEventListener(e,o?Be:ze,o)):n.removeEventListener(e,o?Be:ze,o);else{if(a=="http://www.w3.org/2000/svg")e=e.replace(/xlink(H|:h)/,"h").replace(/sName$/,"s");else if(e!="width"&&e!="height"&&e!="href"&&e!="list"&&e!="form"&&e!="tabIndex"&&e!="download"&&e!="rowSpan"&&e!="colSpan"&&e!="role"&&e!="popover"&&e in n)try{n[e]=r??"";break e}catch{}typeof r=="function"||(r==null||r===!1&&e[4]!="-"?n.removeAttribute(e):n.setAttribute(e,e=="popover"&&r==1?"":r))}}function ut(n){return function(e){if(this.l){var r=this.l[e.type+n];if(e[je]==null)e[je]=Ye++;else if(e[je]<r[ge])return;return r(w.event?w.event(e):e)}}}function Ze(n,e,r,i,a,o,s,d,u,l){var h,p,c,f,g,b,I,$,y,m,E,O,V,re,G,D,N=e.type;if(e.constructor!==void 0)return null;128&r.__u&&(u=!!(32&r.__u),o=[d=e.__e=r.__e]),(h=w.__b)&&h(e);e:if(typeof N=="function"){p=s.length;try{if(y=e.props,m=N.prototype&&N.prototype.render,E=(h=N.contextType)&&i[h.__c],O=h?E?E.props.value:h.__:i,r.__c?$=(c=e.__c=r.__c).__=c.__E:(m?e.__c=c=new N(y,O):(e.__c=c=new Ce(y,O),c.constructor=N,c.render=dn),E&&E.sub(c),c.state||(c.state={}),c.__n=i,f=c.__d=!0,c.__h=[],c._sb=[]),m&&c.__s==null&&(c.__s=c.state),m&&N.getDerivedStateFromProps!=null&&(c.__s==c.state&&(c.__s=W({},c.__s)),W(c.__s,N.getDerivedStateFromProps(y,c.__s))),g=c.props,b=c.state,c.__v=e,f)m&&N.getDerivedStateFromProps==null&&c.componentWillMount!=null&&c.componentWillMount(),m&&c.componentDidMount!=null&&c.__h.push(c.componentDidMount);else{if(m&&N.getDerivedStateFromProps==null&&y!==g&&c.componentWillReceiveProps!=null&&c.componentWillReceiveProps(y,O),e.__v==r.__v||!c.__e&&c.shouldComponentUpdate!=null&&c.shouldComponentUpdate(y,c.__s,O)===!1){e.__v!=r.__v&&(c.props=y,c.state=c.__s,c.__d=!1),e.__e=r.__e,e.__k=r.__k,e.__k.some(function(L){L&&(L.__=e)}),Re.push.apply(c.__h,c._sb),c._sb=[],c.__h.length&&s.push(c),d=oe(r);break e}c.componentWillUpdate!=null&&c.componentWillUpdate(y,c.__s,O),m&&c.componentDidUpdate!=null&&c.__h.push(function(){c.componentDidUpdate(g,b,I)})}if(c.context=O,c.props=y,c.__P=n,c.__e=!1,V=w.__r,re=0,m)c.state=c.__s,c.__d=!1,V&&V(e),h=c.render(c.props,c.state,c.context),Re.push.apply(c.__h,c._sb),c._sb=[];else do c.__d=!1,V&&V(e),h=c.render(c.props,c.state,c.context),c.state=c.__s;while(c.__d&&++re<25);c.state=c.__s,c.getChildContext!=null&&(i=W(W({},i),c.getChildContext())),m&&!f&&c.getSnapshotBeforeUpdate!=null&&(I=c.getSnapshotBeforeUpdate(g,b)),G=h!=null&&h.type===F&&h.key==null?Ot(h.props.children):h,d=Nt(n,ve(G)?G:[G],e,r,i,a,o,s,d,u,l),c.base=e.__e,e.__u&=-161,c.__h.length&&s.push(c),$&&(c.__E=c.__=null)}catch(L){if(s.length=p,e.__v=null,u||o!=null){if(L.then){for(e.__u|=u?160:128;d&&d.nodeType==8&&d.nextSibling;)d=d.nextSibling;o!=null&&(o[o.indexOf(d)]=null),e.__e=d}else if(o!=null)for(D=o.length;D--;)Xe(o[D])}else e.__e=r.__e;e.__k==null&&(e.__k=r.__k||[]),L.then||Et(e),w.__e(L,e,r)}}else o==null&&e.__v==r.__v?(e.__k=r.__k,e.__e=r.__e):d=e.__e=ln(r.__e,e,r,i,a,o,s,u,l);return(h=w.diffed)&&h(e),128&e.__u?void 0:d}function Et(n){n&&(n.__c&&(n.__c.__e=!0),n.__k&&n.__k.some(Et))}function qt(n,e,r){for(var i=0;i<r.length;i++)et(r[i],r[++i],r[++i]);w.__c&&w.__c(e,n),n.some(function(a){try{n=a.__h,a.__h=[],n.some(function(o){o.call(a)})}catch(o){w.__e(o,a.__v)}})}function Ot(n){return typeof n!="object"||n==null||n.__b>0?n:ve(n)?n.map(Ot):n.constructor!==void 0?null:W({},n)}function ln(n,e,r,i,a,o,s,d,u){var l,h,p,c,f,g,b,I=r.props||De,$=e.props,y=e.type;if(y=="svg"?a="http://www.w3.org/2000/svg":y=="math"?a="http://www.w3.org/1998/Math/MathML":a||(a="http://www.w3.org/1999/xhtml"),o!=null){for(l=0;l<o.length;l++)if((f=o[l])&&"setAttribute"in f==!!y&&(y?f.localName==y:f.nodeType==3)){n=f,o[l]=null;break}}if(n==null){if(y==null)return document.createTextNode($);n=document.createElementNS(a,y,$.is&&$),d&&(w.__m&&w.__m(e,o),d=!1),o=null}if(y==null)I===$||d&&n.data==$||(n.data=$);else{if(o=y=="textarea"&&$.defaultValue!=null?null:o&&ye.call(n.childNodes),!d&&o!=null)for(I={},l=0;l<n.attributes.length;l++)I[(f=n.attributes[l]).name]=f.value;for(l in I)f=I[l],l=="dangerouslySetInnerHTML"?p=f:l=="children"||l in $||l=="value"&&"defaultValue"in $||l=="checked"&&"defaultChecked"in $||$e(n,l,null,f,a);for(l in $)f=$[l],l=="children"?c=f:l=="dangerouslySetInnerHTML"?h=f:l=="value"?g=f:l=="checked"?b=f:d&&typeof f!="function"||I[l]===f||$e(n,l,f,I[l],a);if(h)d||p&&(h.__html==p.__html||h.__html==n.innerHTML)||(n.innerHTML=h.__html),e.__k=[];else if(p&&(n.innerHTML=""),Nt(e.type=="template"?n.content:n,ve(c)?c:[c],e,r,i,y=="foreignObject"?"http://www.w3.org/1999/xhtml":a,o,s,o?o[0]:r.__k&&oe(r,0),d,u),o!=null)for(l=o.length;l--;)Xe(o[l]);d&&y!="textarea"||(l="value",y=="progress"&&g==null?n.removeAttribute("value"):g!=null&&(g!==n[l]||y=="progress"&&!g||y=="option"&&g!=I[l])&&$e(n,l,g,I[l],a),l="checked",b!=null&&b!=n[l]&&$e(n,l,b,I[l],a))}return n}function et(n,e,r){try{if(typeof n=="function"){var i=typeof n.__u=="function";i&&n.__u(),i&&e==null||(n.__u=n(e))}else n.current=e}catch(a){w.__e(a,r)}}function Lt(n,e,r){var i,a;if(w.unmount&&w.unmount(n),(i=n.ref)&&(i.current&&i.current!=n.__e||et(i,null,e)),(i=n.__c)!=null){if(i.componentWillUnmount)try{i.componentWillUnmount()}catch(o){w.__e(o,e)}i.base=i.__P=i.__n=null}if(i=n.__k)for(a=0;a<i.length;a++)i[a]&&Lt(i[a],e,r||typeof n.type!="function");r||Xe(n.__e),n.__c=n.__=n.__e=void 0}function dn(n,e,r){return this.constructor(n,r)}function un(n,e,r){var i,a,o,s;e==document&&(e=document.documentElement),w.__&&w.__(n,e),a=(i=!1)?null:e.__k,o=[],s=[],Ze(e,n=e.__k=ie(F,null,[n]),a||De,De,e.namespaceURI,a?null:e.firstChild?ye.call(e.childNodes):null,o,a?a.__e:e.firstChild,i,s),qt(o,n,s),n.props.children=null}function pt(n,e,r){var i,a,o,s,d=W({},n.props);for(o in n.type&&n.type.defaultProps&&(s=n.type.defaultProps),e)o=="key"?i=e[o]:o=="ref"?a=e[o]:d[o]=e[o]===void 0&&s!=null?s[o]:e[o];return arguments.length>2&&(d.children=arguments.length>3?ye.call(arguments,2):r),_e(n.type,d,i||n.key,a||n.ref,null)}function Ut(n){function e(r){var i,a;return this.getChildContext||(i=new Set,(a={})[e.__c]=this,this.getChildContext=function(){return a},this.componentWillUnmount=function(){i=null},this.shouldComponentUpdate=function(o){this.props.value!=o.value&&i.forEach(function(s){s.__e=!0,Fe(s)})},this.sub=function(o){i.add(o);var s=o.componentWillUnmount;o.componentWillUnmount=function(){i&&i.delete(o),s&&s.call(o)}}),r.children}return e.__c="__cC"+Rt++,e.__=n,e.Provider=e.__l=(e.Consumer=function(r,i){return r.children(i)}).contextType=e,e}ye=Re.slice,w={__e:function(n,e,r,i){for(var a,o,s;e=e.__;)if((a=e.__c)&&!a.__)try{if((o=a.constructor)&&o.getDerivedStateFromError!=null&&(a.setState(o.getDerivedStateFromError(n)),s=a.__d),a.componentDidCatch!=null&&(a.componentDidCatch(n,i||{}),s=a.__d),s)return a.__E=a}catch(d){n=d}throw n}},jt=0,Ce.prototype.setState=function(n,e){var r;r=this.__s!=null&&this.__s!=this.state?this.__s:this.__s=W({},this.state),typeof n=="function"&&(n=n(W({},r),this.props)),n&&W(r,n),n!=null&&this.__v&&(e&&this._sb.push(e),Fe(this))},Ce.prototype.forceUpdate=function(n){this.__v&&(this.__e=!0,n&&this.__h.push(n),Fe(this))},Ce.prototype.render=F,Y=[],Ct=typeof Promise=="function"?Promise.prototype.then.bind(Promise.resolve()):setTimeout,At=function(n,e){return n.__v.__b-e.__v.__b},Pe.__r=0,Oe=Math.random().toString(8),je="__d"+Oe,ge="__a"+Oe,Dt=/(PointerCapture)$|Capture$/i,Ye=0,ze=ut(!1),Be=ut(!0),Rt=0;var pn=0;function t(n,e,r,i,a,o){e||(e={});var s,d,u=e;if("ref"in u)for(d in u={},e)d=="ref"?s=e[d]:u[d]=e[d];var l={type:n,props:u,key:r,ref:s,__k:null,__:null,__b:0,__e:null,__c:null,constructor:void 0,__v:--pn,__i:-1,__u:0,__source:a,__self:o};if(typeof n=="function"&&(s=n.defaultProps))for(d in s)u[d]===void 0&&(u[d]=s[d]);return w.vnode&&w.vnode(l),l}var ae,j,Le,ht,me=0,Kt=[],P=w,ft=P.__b,gt=P.__r,_t=P.diffed,mt=P.__c,yt=P.unmount,vt=P.__;function Ie(n,e){P.__h&&P.__h(j,n,me||e),me=0;var r=j.__H||(j.__H={__:[],__h:[]});return n>=r.__.length&&r.__.push({}),r.__[n]}function _(n){return me=1,tt(Bt,n)}function tt(n,e,r){var i=Ie(ae++,2);if(i.t=n,!i.__c&&(i.__=[Bt(void 0,e),function(d){var u=i.__N?i.__N[0]:i.__[0],l=i.t(u,d);u!==l&&(i.__N=[l,i.__[1]],i.__c.setState({}))}],i.__c=j,!j.__f)){var a=function(d,u,l){if(!i.__c.__H)return!0;var h=!1,p=i.__c.props!==d;if(i.__c.__H.__.some(function(f){if(f.__N){h=!0;var g=f.__[0];f.__=f.__N,f.__N=void 0,g!==f.__[0]&&(p=!0)}}),o){var c=o.call(this,d,u,l);return h?c||p:c}return!h||p};j.__f=!0;var o=j.shouldComponentUpdate,s=j.componentWillUpdate;j.componentWillUpdate=function(d,u,l){if(this.__e){var h=o;o=void 0,a(d,u,l),o=h}s&&s.call(this,d,u,l)},j.shouldComponentUpdate=a}return i.__N||i.__}function Q(n,e){var r=Ie(ae++,3);!P.__s&&rt(r.__H,e)&&(r.__=n,r.u=e,j.__H.__h.push(r))}function zt(n,e){var r=Ie(ae++,4);!P.__s&&rt(r.__H,e)&&(r.__=n,r.u=e,j.__h.push(r))}function B(n){return me=5,xe(function(){return{current:n}},[])}function xe(n,e){var r=Ie(ae++,7);return rt(r.__H,e)&&(r.__=n(),r.__H=e,r.__h=n),r.__}function hn(n,e){return me=8,xe(function(){return n},e)}function nt(n){var e=j.context[n.__c],r=Ie(ae++,9);return r.c=n,e?(r.__==null&&(r.__=!0,e.sub(j)),e.props.value):n.__}function fn(){for(var n;n=Kt.shift();){var e=n.__H;if(n.__P&&e)try{e.__h.some(Ae),e.__h.some(Me),e.__h=[]}catch(r){e.__h=[],P.__e(r,n.__v)}}}P.__b=function(n){j=null,ft&&ft(n)},P.__=function(n,e){n&&e.__k&&e.__k.__m&&(n.__m=e.__k.__m),vt&&vt(n,e)},P.__r=function(n){gt&&gt(n),ae=0;var e=(j=n.__c).__H;e&&(Le===j?(e.__h=[],j.__h=[],e.__.some(function(r){r.__N&&(r.__=r.__N),r.u=r.__N=void 0})):(e.__h.some(Ae),e.__h.some(Me),e.__h=[],ae=0)),Le=j},P.diffed=function(n){_t&&_t(n);var e=n.__c;e&&e.__H&&(e.__H.__h.length&&(Kt.push(e)!==1&&ht===P.requestAnimationFrame||((ht=P.requestAnimationFrame)||gn)(fn)),e.__H.__.some(function(r){r.u&&(r.__H=r.u,r.u=void 0)})),Le=j=null},P.__c=function(n,e){e.some(function(r){try{r.__h.some(Ae),r.__h=r.__h.filter(function(i){return!i.__||Me(i)})}catch(i){e.some(function(a){a.__h&&(a.__h=[])}),e=[],P.__e(i,r.__v)}}),mt&&mt(n,e)},P.unmount=function(n){yt&&yt(n);var e,r=n.__c;r&&r.__H&&(r.__H.__.some(function(i){try{Ae(i)}catch(a){e=a}}),r.__H=void 0,e&&P.__e(e,r.__v))};var It=typeof requestAnimationFrame=="function";function gn(n){var e,r=function(){clearTimeout(i),It&&cancelAnimationFrame(e),setTimeout(n)},i=setTimeout(r,35);It&&(e=requestAnimationFrame(r))}function Ae(n){var e=j,r=n.__c;typeof r=="function"&&(n.__c=void 0,r()),j=e}function Me(n){var e=j;n.__c=n.__(),j=e}function rt(n,e){return!n||n.length!==e.length||e.some(function(r,i){return r!==n[i]})}function Bt(n,e){return typeof e=="function"?e(n):e}const _n=(function(){const e=typeof document<"u"&&document.createElement("link").relList;return e&&e.supports&&e.supports("modulepreload")?"modulepreload":"preload"})(),mn=function(n){return"/"+n},bt={},yn=function(e,r,i){let a=Promise.resolve();if(r&&r.length>0){let l=function(h){return Promise.all(h.map(p=>Promise.resolve(p).then(c=>({status:"fulfilled",value:c}),c=>({status:"rejected",reason:c}))))};var s=l;document.getElementsByTagName("link");const d=document.querySelector("meta[property=csp-nonce]"),u=d?.nonce||d?.getAttribute("nonce");a=l(r.map(h=>{if(h=mn(h),h in bt)return;bt[h]=!0;const p=h.endsWith(".css"),c=p?'[rel="stylesheet"]':"";if(document.querySelector(`link[href="${h}"]${c}`))return;const f=document.createElement("link");if(f.rel=p?"stylesheet":_n,p||(f.as="script"),f.crossOrigin="",f.href=h,u&&f.setAttribute("nonce",u),document.head.appendChild(f),p)return new Promise((g,b)=>{f.addEventListener("load",g),f.addEventListener("error",()=>b(new Error(`Unable to preload CSS for ${h}`)))})}))}function o(d){const u=new Event("vite:preloadError",{cancelable:!0});if(u.payload=d,window.dispatchEvent(u),!u.defaultPrevented)throw d}return a.then(d=>{for(const u of d||[])u.status==="rejected"&&o(u.reason);return e().catch(o)})};let le,fe;function vn(n){return!fe||(typeof fe=="string"?n.startsWith(fe):fe.test(n))}function In(n,e){let r="";if(le=void 0,e&&e.type==="click"){if(e.ctrlKey||e.metaKey||e.altKey||e.shiftKey||e.button!==0)return n;const i=e.composedPath().find(o=>o.nodeName=="A"&&o.href),a=i&&i.getAttribute("href");if(!i||i.origin!=location.origin||/^#/.test(a)||!/^(_?self)?$/i.test(i.target)||!vn(a)||i.download)return n;le=!0,e.preventDefault(),r=i.href.replace(location.origin,"")}else e&&e.url?(le=!e.replace,r=e.url):r=location.pathname+location.search;return le===!0?history.pushState(null,"",r):le===!1&&history.replaceState(null,"",r),r}const bn=(n,e,r={})=>{n=n.split("/").filter(Boolean),e=(e||"").split("/").filter(Boolean),r.params||(r.params={});for(let i=0,a,o;i<Math.max(n.length,e.length);i++){let[,s,d,u]=(e[i]||"").match(/^(:?)(.*?)([+*?]?)$/);if(a=n[i],!(!s&&d==a)){if(!s&&a&&u=="*"){r.rest="/"+n.slice(i).join("/");break}if(!s||!a&&u!="?"&&u!="*")return;if(o=u=="+"||u=="*",o?a=n.slice(i).map(decodeURIComponent).join("/")||void 0:a&&(a=decodeURIComponent(a)),r.params[d]=a,d in r||(r[d]=a),o)break}}return r};function be(n){const[e,r]=tt(In,n.url||location.pathname+location.search);n.scope&&(fe=n.scope);const i=le===!0,a=xe(()=>{const o=new URL(e,location.origin),s=o.pathname.replace(/\/+$/g,"")||"/";return{url:e,path:s,query:Object.fromEntries(o.searchParams),route:(d,u)=>r({url:d,replace:u}),back:()=>{history.back()},forward:()=>{history.forward()},wasPush:i}},[e]);return zt(()=>(addEventListener("click",r),addEventListener("popstate",r),()=>{removeEventListener("click",r),removeEventListener("popstate",r)}),[]),ie(be.ctx.Provider,{value:a},n.children)}const $n=Promise.resolve();function He(n){const[e,r]=tt(D=>D+1,0),{url:i,query:a,wasPush:o,path:s}=U();if(!i)throw new Error("preact-iso's <Router> must be used within a <LocationProvider>, see: https://github.com/preactjs/preact-iso#locationprovider");const{rest:d=s,params:u={}}=nt(Ve),l=B(!1),h=B(s),p=B(1),c=B(),f=B(),g=B(),b=B(!1),I=B();I.current=!1;let $,y,m;xt(n.children).some(D=>{if(bn(d,D.props.path,m={...D.props,path:d,query:a,params:Object.assign({},u),rest:""}))return $=pt(D,m);D.props.default&&(y=pt(D,m))});let E=$||y;const O=c.current&&c.current.__u&we&&c.current.__u&ke,V=c.current&&c.current.__h,re=xe(()=>{f.current=c.current,c.current=ie(Ve.Provider,{value:m},E);const D=f.current&&f.current.props.children;return!D||!E||E.type!==D.type||E.props.component!==D.props.component?(p.current++,!0):!1},[i,JSON.stringify(m)]);O?(c.current.__u|=we,c.current.__u|=ke):V&&(c.current.__h=!0);const G=f.current;return f.current=null,this.__c=(D,N)=>{I.current=!0,f.current=G,n.onLoadStart&&n.onLoadStart(i),l.current=!0;let L=p.current;D.then(()=>{L===p.current&&(f.current=null,c.current&&(N.__h&&(c.current.__h=N.__h),N.__u&ke&&(c.current.__u|=ke),N.__u&we&&(c.current.__u|=we)),$n.then(r))})},zt(()=>{const D=this.__v&&this.__v.__e;if(I.current){!b.current&&!g.current&&(g.current=D);return}!b.current&&g.current&&(g.current!==D&&g.current.remove(),g.current=null),b.current=!0,h.current!==s&&(o&&scrollTo(0,0),n.onRouteChange&&n.onRouteChange(i),h.current=s),n.onLoadEnd&&l.current&&n.onLoadEnd(i),l.current=!1},[s,o,e]),re?[ie(Ue,{r:c,key:p.current}),ie(Ue,{r:f,key:p.current-1})]:ie(Ue,{r:c,key:p.current})}const we=32,ke=128,Ue=({r:n})=>n.current;He.Provider=be;be.ctx=Ut({});const Ve=Ut({}),x=n=>ie(n.component,n),U=()=>nt(be.ctx),ee=()=>nt(Ve),We={unauthenticated:"Your session has ended. Log in again.",forbidden:"You are not allowed to do this.",not_found:"Not found, or not yours.",rate_limited:"Too many requests. Wait a moment and try again.",unavailable:"The service is unavailable right now. Try again shortly.",internal:"Something went wrong on our side. Try again; if it persists, contact support.",network:"The server cannot be reached. Check your connection and try again."};class T extends Error{code;problems;constructor(e,r,i=[]){super(r),this.code=e,this.problems=i}static from(e){const r=e[0],i=r?.extensions?.code??"internal",a=e.flatMap(s=>s.extensions?.detail??[]);let o=r?.message??"Unknown error";return i==="invalid"&&a.length>0?o="Some fields need your attention.":i!=="conflict"&&i!=="authority_not_configured"&&We[i]&&i!=="unauthenticated"&&(o=`${We[i]}${r?.message&&i!=="internal"?` (${r.message})`:""}`),new T(i,o,a)}fieldErrors(e=["input"]){const r={};for(const i of this.problems){let a=i.loc;for(;a.length>0&&e.includes(String(a[0]));)a=a.slice(1);const o=a.join(".");o in r||(r[o]=i.msg)}return r}}function Ft(){return new T("network",We.network)}function wn(n){return n instanceof T||n instanceof Error?n.message:String(n)}function kn(n){let e=n;const r=new Set;return{get:()=>e,set(i){e=i,r.forEach(a=>a(i))},subscribe(i){return r.add(i),()=>r.delete(i)}}}function Sn(n){const[e,r]=_(n.get());return Q(()=>(r(n.get()),n.subscribe(r)),[n]),e}const X=kn({status:"unknown"});let Qe;function it(n,e,r){const i=Date.now()+e*1e3;X.set({status:"signedIn",token:n,expiresAt:i,user:r}),clearTimeout(Qe);const a=Math.max(1e4,e*1e3-6e4);Qe=setTimeout(()=>{Ee()},a)}function ot(){clearTimeout(Qe),X.set({status:"signedOut"})}let Ge,he;function jn(n){Ge=n}function Ee(){if(he)return he;const n=async()=>{if(!Ge)return!1;const i=await Ge();return i?(it(i.accessToken,i.expiresIn,i.user),!0):(ot(),!1)},e=navigator.locks;return he=(e?e.request("einvoice-session-refresh",n):n()).finally(()=>{he=void 0}),he}const Mt="/graphql";async function Ne(n,e,r){const i={"Content-Type":"application/json",Accept:"application/json"};r&&(i.Authorization=`Bearer ${r}`);let a;try{a=await fetch(Mt,{method:"POST",headers:i,body:JSON.stringify({query:n,variables:e}),credentials:"same-origin"})}catch{throw Ft()}let o;try{o=await a.json()}catch{throw a.status===429?new T("rate_limited","Too many requests. Wait a moment and try again."):new T("internal",`The server answered ${a.status}.`)}return a.status===401&&!o.errors&&(o.errors=[{message:"unauthenticated",extensions:{code:"unauthenticated"}}]),o}function $t(n){return!!n?.some(e=>e.extensions?.code==="unauthenticated")}async function R(n,...[e]){const r=n.toString();let i=await Ne(r,e??{},X.get().token);if($t(i.errors)&&X.get().token!==void 0)if(await Ee())i=await Ne(r,e??{},X.get().token);else throw new T("unauthenticated","Your session has ended. Log in again.");if(i.errors?.length)throw $t(i.errors)&&X.get().status==="signedIn"&&ot(),T.from(i.errors);if(!i.data)throw new T("internal","The server answered no data.");return i.data}async function at(n,e){const r=await Ne(n.toString(),e??{});if(r.errors?.length)throw T.from(r.errors);if(!r.data)throw new T("internal","The server answered no data.");return r.data}const Cn="mutation RefreshSession { refreshSession { accessToken expiresIn user { id email } } }";jn(async()=>{try{return(await Ne(Cn,{})).data?.refreshSession??null}catch{return null}});let de;async function An(){if(de)return de;const{createClient:n}=await yn(async()=>{const{createClient:r}=await import("./index-CVrq6WPd.js");return{createClient:r}},[]),e=`${location.protocol==="https:"?"wss":"ws"}://${location.host}${Mt}`;return de=n({url:e,lazy:!0,retryAttempts:5,shouldRetry:()=>!0,connectionParams:()=>{const r=X.get().token;return r?{Authorization:`Bearer ${r}`}:{}},on:{closed:r=>{r?.code===4403&&Ee()}}}),de}function Dn(){de?.dispose(),de=void 0}function Rn(n,e,r,i){let a,o=!1;return An().then(s=>{o||(a=s.subscribe({query:n.toString(),variables:e},{next:d=>{d.errors?.length?i(T.from(d.errors)):d.data&&r(d.data)},error:d=>{Array.isArray(d)?i(T.from(d)):i(Ft())},complete:()=>i()}))}),()=>{o=!0,a?.()}}function J(n,e){const[r,i]=_({loading:!0}),[a,o]=_(0),s=B(0);Q(()=>{const u=++s.current;i(l=>({data:l.data,loading:!0})),n().then(l=>u===s.current&&i({data:l,loading:!1}),l=>u===s.current&&i({error:l,loading:!1}))},[...e,a]);const d=hn(()=>o(u=>u+1),[]);return{...r,reload:d}}class C extends String{__apiType;value;__meta__;constructor(e,r){super(e),this.value=e,this.__meta__=r}toString(){return this.value}}const Pn=new C(`
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
    `),Nn=new C(`
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
    `),Tn=new C(`
    mutation Logout {
  logout {
    revoked
  }
}
    `),xn=new C(`
    mutation EndSession {
  endSession {
    ended
  }
}
    `),En=new C(`
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
    `),qn=new C(`
    mutation CreateOrg($input: CreateOrganizationInput!) {
  createOrganization(input: $input) {
    id
    name
    slug
    role
  }
}
    `),On=new C(`
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
    `),Ln=new C(`
    mutation CreateProject($input: CreateProjectInput!) {
  createProject(input: $input) {
    id
    name
    environment
  }
}
    `),Un=new C(`
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
    `),Kn=new C(`
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
    `),zn=new C(`
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
    `),Bn=new C(`
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
    `),Fn=new C(`
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
    `),Mn=new C(`
    mutation RevokeKey($projectId: ID!, $keyId: ID!) {
  revokeApiKey(projectId: $projectId, keyId: $keyId) {
    id
    status
    revokedAt
  }
}
    `),Hn=new C(`
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
    `),Vn=new C(`
    mutation StartRun($input: StartCertificationRunInput!) {
  startCertificationRun(input: $input) {
    id
    status
  }
}
    `),Wn=new C(`
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
    `),Qn=new C(`
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
    `),Gn=new C(`
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
    `),Jn=new C(`
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
    `),Yn=new C(`
    query ValidateInvoice($projectId: ID!, $input: ValidateInvoiceInput!) {
  project(id: $projectId) {
    id
    validationProfile
  }
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
    `),Xn=new C(`
    mutation GenerateIrn($projectId: ID!, $input: GenerateIrnInput!) {
  generateIrn(projectId: $projectId, input: $input) {
    irn
    invoiceReference
    serviceId
    issueDate
  }
}
    `),Zn=new C(`
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
    `),er=new C(`
    query RenderInvoice($projectId: ID!, $input: RenderInvoiceInput!) {
  renderInvoice(projectId: $projectId, input: $input, pdf: true) {
    valid
    irn
    pdfBase64
  }
}
    `),tr={"\n  mutation Signup($input: SignupInput!) {\n    signup(input: $input) { accessToken expiresIn user { id email } organization { id } }\n  }\n":Pn,"\n  mutation Login($input: LoginInput!) {\n    login(input: $input) { accessToken expiresIn user { id email } organizations { id } }\n  }\n":Nn,"\n  mutation Logout {\n    logout { revoked }\n  }\n":Tn,"\n  mutation EndSession {\n    endSession { ended }\n  }\n":xn,"\n  query Orgs {\n    me { id email organizations(first: 200) { edges { node { id name slug role } } } }\n  }\n":En,"\n  mutation CreateOrg($input: CreateOrganizationInput!) {\n    createOrganization(input: $input) { id name slug role }\n  }\n":qn,"\n  query OrgProjects($id: ID!) {\n    organization(id: $id) {\n      id name role\n      projects(first: 200) { edges { node { id name environment createdAt authority { configured } } } }\n    }\n  }\n":On,"\n  mutation CreateProject($input: CreateProjectInput!) {\n    createProject(input: $input) { id name environment }\n  }\n":Ln,"\n  query Project($id: ID!) {\n    project(id: $id) {\n      id name environment createdAt\n      organization { id name role }\n      authority {\n        taxAuthorityCode businessId serviceId configured qrEncryption publicKeyFingerprint baseUrl hasApiCredentials\n      }\n    }\n  }\n":Un,"\n  mutation UpdateAuthority($projectId: ID!, $input: UpdateProjectAuthorityInput!) {\n    updateProjectAuthority(projectId: $projectId, input: $input) {\n      id authority { taxAuthorityCode businessId serviceId configured qrEncryption publicKeyFingerprint baseUrl hasApiCredentials }\n    }\n  }\n":Kn,"\n  query Keys($id: ID!) {\n    apiKeyScopes\n    project(id: $id) {\n      id name environment\n      apiKeys(first: 200) {\n        edges { node { id keyName clientId secretLast4 scopes status createdAt lastUsedAt rotatedAt revokedAt } }\n      }\n    }\n  }\n":zn,"\n  mutation CreateKey($input: CreateApiKeyInput!) {\n    createApiKey(input: $input) { clientSecret key { id keyName clientId scopes } }\n  }\n":Bn,"\n  mutation RotateKey($projectId: ID!, $keyId: ID!, $graceSeconds: Int) {\n    rotateApiKey(projectId: $projectId, keyId: $keyId, graceSeconds: $graceSeconds) { clientSecret key { id keyName clientId } }\n  }\n":Fn,"\n  mutation RevokeKey($projectId: ID!, $keyId: ID!) {\n    revokeApiKey(projectId: $projectId, keyId: $keyId) { id status revokedAt }\n  }\n":Mn,"\n  query Runs($id: ID!, $after: String) {\n    project(id: $id) {\n      id name authority { configured }\n      certificationRuns(first: 20, after: $after) {\n        edges { node { id status invoiceType issueDate irn failureReason createdAt finishedAt } }\n        pageInfo { hasNextPage endCursor }\n      }\n    }\n  }\n":Hn,"\n  mutation StartRun($input: StartCertificationRunInput!) {\n    startCertificationRun(input: $input) { id status }\n  }\n":Vn,"\n  query Run($id: ID!) {\n    certificationRun(id: $id) {\n      id projectId status invoiceType issueDate irn failureReason createdAt finishedAt\n      temporal { workflowId runId uiUrl }\n      steps { name status attempts startedAt finishedAt durationMs httpStatus nrsErrorId message }\n    }\n  }\n":Wn,"\n  subscription RunUpdated($id: ID!) {\n    certificationRunUpdated(id: $id) {\n      id projectId status invoiceType issueDate irn failureReason createdAt finishedAt\n      temporal { workflowId runId uiUrl }\n      steps { name status attempts startedAt finishedAt durationMs httpStatus nrsErrorId message }\n    }\n  }\n":Qn,"\n  query Usage($id: ID!, $from: String, $to: String, $keyId: ID) {\n    project(id: $id) {\n      id name\n      apiKeys(first: 200) { edges { node { id keyName status } } }\n      usage(from: $from, to: $to, keyId: $keyId) {\n        from to total keyId\n        byOperation { operation count }\n        daily { date operation count }\n      }\n    }\n  }\n":Gn,"\n  query Audit($org: ID, $action: String, $after: String) {\n    auditActions\n    auditLogs(organizationId: $org, action: $action, first: 25, after: $after) {\n      edges { node { id action createdAt ip userAgent requestId hash prevHash actor { type id } target { type id } } }\n      pageInfo { hasNextPage endCursor }\n    }\n  }\n":Jn,"\n  query ValidateInvoice($projectId: ID!, $input: ValidateInvoiceInput!) {\n    project(id: $projectId) { id validationProfile }\n    validateInvoice(projectId: $projectId, input: $input) {\n      valid schemaVersion ruleset\n      errors { rule severity path loc message }\n      warnings { rule severity path loc message }\n    }\n  }\n":Yn,"\n  mutation GenerateIrn($projectId: ID!, $input: GenerateIrnInput!) {\n    generateIrn(projectId: $projectId, input: $input) { irn invoiceReference serviceId issueDate }\n  }\n":Xn,"\n  query InvoiceQr($projectId: ID!, $input: InvoiceQrCodeInput!) {\n    invoiceQrCode(projectId: $projectId, input: $input, png: true) { irn timestamp qrPayload encryption keyFingerprint qrPngBase64 }\n  }\n":Zn,"\n  query RenderInvoice($projectId: ID!, $input: RenderInvoiceInput!) {\n    renderInvoice(projectId: $projectId, input: $input, pdf: true) { valid irn pdfBase64 }\n  }\n":er};function A(n){return tr[n]??{}}const nr=A(`
  mutation Signup($input: SignupInput!) {
    signup(input: $input) { accessToken expiresIn user { id email } organization { id } }
  }
`),rr=A(`
  mutation Login($input: LoginInput!) {
    login(input: $input) { accessToken expiresIn user { id email } organizations { id } }
  }
`),ir=A(`
  mutation Logout {
    logout { revoked }
  }
`),or=A(`
  mutation EndSession {
    endSession { ended }
  }
`),st=A(`
  query Orgs {
    me { id email organizations(first: 200) { edges { node { id name slug role } } } }
  }
`),ar=A(`
  mutation CreateOrg($input: CreateOrganizationInput!) {
    createOrganization(input: $input) { id name slug role }
  }
`),sr=A(`
  query OrgProjects($id: ID!) {
    organization(id: $id) {
      id name role
      projects(first: 200) { edges { node { id name environment createdAt authority { configured } } } }
    }
  }
`),cr=A(`
  mutation CreateProject($input: CreateProjectInput!) {
    createProject(input: $input) { id name environment }
  }
`),lr=A(`
  query Project($id: ID!) {
    project(id: $id) {
      id name environment createdAt
      organization { id name role }
      authority {
        taxAuthorityCode businessId serviceId configured qrEncryption publicKeyFingerprint baseUrl hasApiCredentials
      }
    }
  }
`),dr=A(`
  mutation UpdateAuthority($projectId: ID!, $input: UpdateProjectAuthorityInput!) {
    updateProjectAuthority(projectId: $projectId, input: $input) {
      id authority { taxAuthorityCode businessId serviceId configured qrEncryption publicKeyFingerprint baseUrl hasApiCredentials }
    }
  }
`),ur=A(`
  query Keys($id: ID!) {
    apiKeyScopes
    project(id: $id) {
      id name environment
      apiKeys(first: 200) {
        edges { node { id keyName clientId secretLast4 scopes status createdAt lastUsedAt rotatedAt revokedAt } }
      }
    }
  }
`),pr=A(`
  mutation CreateKey($input: CreateApiKeyInput!) {
    createApiKey(input: $input) { clientSecret key { id keyName clientId scopes } }
  }
`),hr=A(`
  mutation RotateKey($projectId: ID!, $keyId: ID!, $graceSeconds: Int) {
    rotateApiKey(projectId: $projectId, keyId: $keyId, graceSeconds: $graceSeconds) { clientSecret key { id keyName clientId } }
  }
`),fr=A(`
  mutation RevokeKey($projectId: ID!, $keyId: ID!) {
    revokeApiKey(projectId: $projectId, keyId: $keyId) { id status revokedAt }
  }
`),gr=A(`
  query Runs($id: ID!, $after: String) {
    project(id: $id) {
      id name authority { configured }
      certificationRuns(first: 20, after: $after) {
        edges { node { id status invoiceType issueDate irn failureReason createdAt finishedAt } }
        pageInfo { hasNextPage endCursor }
      }
    }
  }
`),_r=A(`
  mutation StartRun($input: StartCertificationRunInput!) {
    startCertificationRun(input: $input) { id status }
  }
`),mr=A(`
  query Run($id: ID!) {
    certificationRun(id: $id) {
      id projectId status invoiceType issueDate irn failureReason createdAt finishedAt
      temporal { workflowId runId uiUrl }
      steps { name status attempts startedAt finishedAt durationMs httpStatus nrsErrorId message }
    }
  }
`),yr=A(`
  subscription RunUpdated($id: ID!) {
    certificationRunUpdated(id: $id) {
      id projectId status invoiceType issueDate irn failureReason createdAt finishedAt
      temporal { workflowId runId uiUrl }
      steps { name status attempts startedAt finishedAt durationMs httpStatus nrsErrorId message }
    }
  }
`),vr=A(`
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
`),Ir=A(`
  query Audit($org: ID, $action: String, $after: String) {
    auditActions
    auditLogs(organizationId: $org, action: $action, first: 25, after: $after) {
      edges { node { id action createdAt ip userAgent requestId hash prevHash actor { type id } target { type id } } }
      pageInfo { hasNextPage endCursor }
    }
  }
`),br=A(`
  query ValidateInvoice($projectId: ID!, $input: ValidateInvoiceInput!) {
    project(id: $projectId) { id validationProfile }
    validateInvoice(projectId: $projectId, input: $input) {
      valid schemaVersion ruleset
      errors { rule severity path loc message }
      warnings { rule severity path loc message }
    }
  }
`),$r=A(`
  mutation GenerateIrn($projectId: ID!, $input: GenerateIrnInput!) {
    generateIrn(projectId: $projectId, input: $input) { irn invoiceReference serviceId issueDate }
  }
`),wr=A(`
  query InvoiceQr($projectId: ID!, $input: InvoiceQrCodeInput!) {
    invoiceQrCode(projectId: $projectId, input: $input, png: true) { irn timestamp qrPayload encryption keyFingerprint qrPngBase64 }
  }
`),kr=A(`
  query RenderInvoice($projectId: ID!, $input: RenderInvoiceInput!) {
    renderInvoice(projectId: $projectId, input: $input, pdf: true) { valid irn pdfBase64 }
  }
`);function K(n){const e=B(null);return Q(()=>{document.title=`${n.title} · einvoice`,e.current?.focus({preventScroll:!1})},[n.title]),t("section",{class:"page","aria-labelledby":"page-title",children:[t("div",{class:"page-head",children:[t("h1",{id:"page-title",tabIndex:-1,ref:e,children:n.title}),n.actions&&t("div",{class:"page-actions",children:n.actions})]}),n.lead&&t("p",{class:"lead",children:n.lead}),n.children]})}function M(n){return t("p",{class:"loading",role:"status","aria-live":"polite",children:[t("span",{class:"spinner","aria-hidden":"true"})," ",n.label??"Loading…"]})}function ce(n){return t("div",{class:"empty",children:n.children})}function H(n){return n.error?t("div",{class:"alert error",role:"alert",children:[t("p",{children:wn(n.error)}),n.retry&&t("button",{type:"button",class:"secondary",onClick:n.retry,children:"Try again"})]}):null}function Ht(n){return t("div",{class:`alert ${n.kind??"ok"}`,role:"status",children:n.children})}let Sr=0;function Vt(n){const[e]=_(()=>`${n}-${++Sr}`);return e}function S({label:n,name:e,error:r,hint:i,...a}){const o=Vt(e),s=[i?`${o}-hint`:"",r?`${o}-error`:""].filter(Boolean).join(" ")||void 0;return t("div",{class:`field${r?" invalid":""}`,children:[t("label",{for:o,children:n}),t("input",{id:o,name:e,"aria-invalid":r?"true":void 0,"aria-describedby":s,...a}),i&&t("p",{class:"hint",id:`${o}-hint`,children:i}),r&&t("p",{class:"field-error",id:`${o}-error`,children:r})]})}function se({label:n,name:e,error:r,children:i,...a}){const o=Vt(e);return t("div",{class:`field${r?" invalid":""}`,children:[t("label",{for:o,children:n}),t("select",{id:o,name:e,"aria-invalid":r?"true":void 0,"aria-describedby":r?`${o}-error`:void 0,...a,children:i}),r&&t("p",{class:"field-error",id:`${o}-error`,children:r})]})}function te(n){if(!n.error)return null;const e=n.error;if(e instanceof T&&e.code==="invalid"){const r=e.fieldErrors(),i=Object.entries(r).filter(([a])=>!n.fields?.includes(a));return t("div",{class:"alert error",role:"alert",children:[t("p",{children:e.message}),i.length>0&&t("ul",{children:i.map(([a,o])=>t("li",{children:[t("code",{children:a||"request"}),": ",o]},a))})]})}return t(H,{error:e})}function ne(n){return n instanceof T?n.fieldErrors():{}}function wt(n){const e=B(null);return Q(()=>{const r=e.current;r&&(n.open&&!r.open&&r.showModal(),!n.open&&r.open&&r.close())},[n.open]),t("dialog",{ref:e,"aria-labelledby":"confirm-title",onClose:n.onClose,onCancel:n.onClose,children:[t("h2",{id:"confirm-title",children:n.title}),n.children,t("div",{class:"dialog-actions",children:[t("button",{type:"button",class:"secondary",onClick:n.onClose,children:"Cancel"}),t("button",{type:"button",class:n.danger?"danger":"",disabled:n.busy,onClick:n.onConfirm,children:n.confirm})]})]})}function kt(n){const[e,r]=_("");return t("span",{class:"copy",children:[t("button",{type:"button",class:"secondary",onClick:async()=>{try{await navigator.clipboard.writeText(n.text),r("ok")}catch{r("fail")}},children:n.label??"Copy"}),t("span",{role:"status","aria-live":"polite",class:"copy-status",children:e==="ok"?"Copied":e==="fail"?"Copy failed: select the text and copy it":""})]})}function Z(n){return n?new Date(n).toLocaleString(void 0,{dateStyle:"medium",timeStyle:"short"}):"—"}function q(n){return t("span",{class:`badge ${n.tone??"info"}`,children:n.children})}const jr=[{path:"",label:"Overview"},{path:"/keys",label:"API keys"},{path:"/certification",label:"Certification"},{path:"/usage",label:"Usage"},{path:"/workbench",label:"Workbench"}],Cr=[{path:"/projects",label:"Projects"},{path:"/audit",label:"Audit log"}],ue="einvoice.org";function Ar(n){const e=n.next;return e&&e.startsWith("/")&&!e.startsWith("//")?e:"/"}function Dr(){const n=U(),[e,r]=_(),[i,a]=_(!1),o=async d=>{d.preventDefault();const u=new FormData(d.currentTarget);a(!0),r(void 0);try{const l=await at(rr,{input:{email:String(u.get("email")),password:String(u.get("password"))}});it(l.login.accessToken,l.login.expiresIn,l.login.user),n.route(Ar(n.query),!0)}catch(l){r(l)}finally{a(!1)}},s=ne(e);return t("div",{class:"auth",children:t(K,{title:"Log in to einvoice",children:[t("form",{onSubmit:o,noValidate:!0,children:[t(S,{label:"Email",name:"email",type:"email",autoComplete:"email",required:!0,error:s.email}),t(S,{label:"Password",name:"password",type:"password",autoComplete:"current-password",required:!0,error:s.password}),t(te,{error:e,fields:["email","password"]}),t("button",{type:"submit",disabled:i,children:i?"Logging in…":"Log in"})]}),t("p",{children:["New here? ",t("a",{href:"/signup",children:"Create an account"})]})]})})}function Rr(){const n=U(),[e,r]=_(),[i,a]=_(!1),[o,s]=_(""),[d,u]=_(!1),l=async p=>{p.preventDefault();const c=new FormData(p.currentTarget);a(!0),r(void 0);try{const f=await at(nr,{input:{email:String(c.get("email")),password:String(c.get("password")),organizationName:String(c.get("organizationName")),organizationSlug:String(c.get("organizationSlug"))}});it(f.signup.accessToken,f.signup.expiresIn,f.signup.user),f.signup.organization?(localStorage.setItem(ue,f.signup.organization.id),n.route(`/orgs/${f.signup.organization.id}/projects`,!0)):n.route("/",!0)}catch(f){r(f)}finally{a(!1)}},h=ne(e);return t("div",{class:"auth",children:t(K,{title:"Create your einvoice account",children:[t("form",{onSubmit:l,noValidate:!0,children:[t(S,{label:"Email",name:"email",type:"email",autoComplete:"email",required:!0,error:h.email}),t(S,{label:"Password",name:"password",type:"password",autoComplete:"new-password",required:!0,minLength:8,hint:"At least 8 characters.",error:h.password}),t(S,{label:"Organization name",name:"organizationName",required:!0,autoComplete:"organization",error:h.organizationName,onInput:p=>{d||s(Wt(p.currentTarget.value))}}),t(S,{label:"Organization slug",name:"organizationSlug",required:!0,value:o,hint:"Lower-case letters and digits in dash-separated groups, such as sango-supplies.",error:h.organizationSlug,onInput:p=>{u(!0),s(p.currentTarget.value)}}),t(te,{error:e,fields:["email","password","organizationName","organizationSlug"]}),t("button",{type:"submit",disabled:i,children:i?"Creating…":"Create account"})]}),t("p",{children:["Have an account? ",t("a",{href:"/login",children:"Log in"})]})]})})}function Wt(n){return n.toLowerCase().normalize("NFKD").replace(/[^a-z0-9]+/g,"-").replace(/^-+|-+$/g,"").slice(0,100)}function Pr(){const n=U(),e=J(()=>R(st),[]),[r,i]=_(),[a,o]=_(!1),[s,d]=_(""),u=async p=>{p.preventDefault();const c=new FormData(p.currentTarget);o(!0),i(void 0);try{const f=await R(ar,{input:{name:String(c.get("name")),slug:String(c.get("slug"))}});localStorage.setItem(ue,f.createOrganization.id),n.route(`/orgs/${f.createOrganization.id}/projects`)}catch(f){i(f)}finally{o(!1)}},l=ne(r),h=e.data?.me.organizations.edges??[];return t(K,{title:"Organizations",lead:"An organization owns projects and their API keys. Switch between yours or create one.",children:[e.loading&&!e.data&&t(M,{}),t(H,{error:e.error,retry:e.reload}),e.data&&h.length===0&&t(ce,{children:"You belong to no organization yet. Create one below."}),h.length>0&&t("ul",{class:"cards",children:h.map(({node:p})=>t("li",{class:"card",children:[t("a",{href:`/orgs/${p.id}/projects`,onClick:()=>localStorage.setItem(ue,p.id),children:p.name}),t("span",{class:"muted",children:[" ",p.slug]})," ",t(q,{children:p.role.toLowerCase()})]},p.id))}),t("form",{onSubmit:u,class:"panel",noValidate:!0,children:[t("h2",{children:"New organization"}),t(S,{label:"Name",name:"name",required:!0,error:l.name,onInput:p=>d(Wt(p.currentTarget.value))}),t(S,{label:"Slug",name:"slug",required:!0,value:s,onInput:p=>d(p.currentTarget.value),error:l.slug}),t(te,{error:r,fields:["name","slug"]}),t("button",{type:"submit",disabled:a,children:a?"Creating…":"Create organization"})]})]})}function pe(n){const e=U(),r=`/projects/${n.projectId}`;return t(F,{children:[t("nav",{"aria-label":"Breadcrumb",class:"crumbs",children:[n.org&&t("a",{href:`/orgs/${n.org.id}/projects`,children:n.org.name}),n.org&&t("span",{"aria-hidden":"true",children:" / "}),t("span",{children:n.project??"Project"})]}),t("nav",{"aria-label":"Project",class:"tabs",children:jr.map(i=>t("a",{href:r+i.path,"aria-current":e.path===r+i.path?"page":void 0,children:i.label},i.path))})]})}function Qt(n){const e=U(),r=`/orgs/${n.orgId}`;return t("nav",{"aria-label":"Organization",class:"tabs",children:[Cr.map(i=>t("a",{href:r+i.path,"aria-current":e.path===r+i.path?"page":void 0,children:i.label},i.path)),n.children]})}function Gt(n){const e=U(),i=J(()=>R(st),[]).data?.me.organizations.edges??[];return i.length<2?null:t("div",{class:"switcher",children:[t("label",{for:"org-switch",children:"Switch organization"}),t("select",{id:"org-switch",value:n.orgId,onChange:a=>{const o=a.currentTarget.value;localStorage.setItem(ue,o),e.route(`/orgs/${o}/projects`)},children:i.map(({node:a})=>t("option",{value:a.id,children:a.name},a.id))})]})}function Nr(){const{params:n}=ee(),e=n.orgId,r=U(),i=J(()=>R(sr,{id:e}),[e]),[a,o]=_(),[s,d]=_(!1);Q(()=>localStorage.setItem(ue,e),[e]);const u=i.data?.organization,l=async f=>{f.preventDefault();const g=new FormData(f.currentTarget);d(!0),o(void 0);try{const b=await R(cr,{input:{organizationId:e,name:String(g.get("name")),environment:g.get("environment")==="PRODUCTION"?"PRODUCTION":"SANDBOX"}});r.route(`/projects/${b.createProject.id}`)}catch(b){o(b)}finally{d(!1)}},h=ne(a),p=u?.projects.edges??[],c=u&&u.role!=="MEMBER";return t(K,{title:u?`${u.name}: projects`:"Projects",actions:t(Gt,{orgId:e}),children:[t(Qt,{orgId:e}),i.loading&&!i.data&&t(M,{label:"Loading projects…"}),t(H,{error:i.error,retry:i.reload}),u&&p.length===0&&t(ce,{children:t("p",{children:"No projects yet. A project is one integration with NRS: start with a sandbox project to try the API."})}),p.length>0&&t("ul",{class:"cards","aria-label":"Projects",children:p.map(({node:f})=>t("li",{class:"card",children:[t("a",{href:`/projects/${f.id}`,children:f.name})," ",t(q,{tone:f.environment==="PRODUCTION"?"warn":"info",children:f.environment.toLowerCase()})," ",!f.authority.configured&&t(q,{tone:"bad",children:"not configured"}),t("div",{class:"muted small",children:["Created ",Z(f.createdAt)]})]},f.id))}),c&&t("form",{onSubmit:l,class:"panel",noValidate:!0,children:[t("h2",{children:"New project"}),t(S,{label:"Project name",name:"name",required:!0,error:h.name}),t(se,{label:"Environment",name:"environment",error:h.environment,children:[t("option",{value:"SANDBOX",children:"Sandbox: provisioned at once, talks to the NRS sandbox"}),t("option",{value:"PRODUCTION",children:"Production: needs your NRS business settings"})]}),t(te,{error:a,fields:["name","environment"]}),t("button",{type:"submit",disabled:s,children:s?"Creating…":"Create project"})]})]})}function Tr(){const{params:n}=ee(),e=n.projectId,r=J(()=>R(lr,{id:e}),[e]),i=r.data?.project;return t(K,{title:i?i.name:"Project",children:[t(pe,{projectId:e,org:i?.organization,project:i?.name}),r.loading&&!i&&t(M,{}),t(H,{error:r.error,retry:r.reload}),i&&t(F,{children:[t("dl",{class:"facts",children:[t("dt",{children:"Environment"}),t("dd",{children:t(q,{tone:i.environment==="PRODUCTION"?"warn":"info",children:i.environment.toLowerCase()})}),t("dt",{children:"Created"}),t("dd",{children:Z(i.createdAt)}),t("dt",{children:"Tax authority"}),t("dd",{children:i.authority.taxAuthorityCode}),t("dt",{children:"Business id"}),t("dd",{children:t("code",{children:i.authority.businessId??"—"})}),t("dt",{children:"Service id"}),t("dd",{children:t("code",{children:i.authority.serviceId??"—"})}),t("dt",{children:"Status"}),t("dd",{children:i.authority.configured?t(q,{tone:"ok",children:"configured"}):t(q,{tone:"bad",children:"not configured"})}),t("dt",{children:"API credentials"}),t("dd",{children:i.authority.hasApiCredentials?"stored (never shown)":"none"}),t("dt",{children:"QR encryption"}),t("dd",{children:i.authority.qrEncryption}),t("dt",{children:"Public key fingerprint"}),t("dd",{children:t("code",{class:"wrap",children:i.authority.publicKeyFingerprint??"—"})})]}),i.environment==="PRODUCTION"&&i.organization.role!=="MEMBER"&&t(Er,{projectId:e,onSaved:r.reload}),i.environment==="SANDBOX"&&t("p",{class:"muted",children:"Sandbox projects are provisioned by einvoice and talk to the NRS sandbox stand-in: nothing to configure."})]})]})}const xr=["taxAuthorityCode","businessId","serviceId","publicKey","certificate","apiKey","apiSecret","baseUrl","qrEncryption"];function Er(n){const[e,r]=_(),[i,a]=_(!1),[o,s]=_(!1),d=async l=>{l.preventDefault();const h=l.currentTarget,p=new FormData(h),c=f=>{const g=String(p.get(f)??"").trim();return g===""?null:g};a(!0),r(void 0),s(!1);try{await R(dr,{projectId:n.projectId,input:{taxAuthorityCode:String(p.get("taxAuthorityCode")??"NRS"),businessId:String(p.get("businessId")??""),serviceId:String(p.get("serviceId")??""),publicKey:String(p.get("publicKey")??""),certificate:String(p.get("certificate")??""),apiKey:c("apiKey"),apiSecret:c("apiSecret"),baseUrl:c("baseUrl"),qrEncryption:c("qrEncryption")}});for(const f of["publicKey","certificate","apiKey","apiSecret"])h.elements.namedItem(f).value="";s(!0),n.onSaved()}catch(f){r(f)}finally{a(!1)}},u=ne(e);return t("form",{class:"panel",onSubmit:d,noValidate:!0,children:[t("h2",{children:"Tax authority settings"}),t("p",{class:"muted",children:"The values NRS issued your business. The key, certificate and API credentials are encrypted at rest and never shown again: to change one, enter them all anew."}),t(S,{label:"Tax authority",name:"taxAuthorityCode",value:"NRS",readOnly:!0,error:u.taxAuthorityCode}),t(S,{label:"Business id",name:"businessId",required:!0,error:u.businessId,hint:"The UUID NRS gave your business."}),t(S,{label:"Service id",name:"serviceId",required:!0,error:u.serviceId,hint:"8 letters or digits."}),t(S,{label:"Public key",name:"publicKey",type:"password",autoComplete:"off",required:!0,error:u.publicKey,hint:"From crypto_keys.txt: PEM, or base64 of it."}),t(S,{label:"Certificate",name:"certificate",type:"password",autoComplete:"off",required:!0,error:u.certificate}),t(S,{label:"NRS API key",name:"apiKey",type:"password",autoComplete:"off",error:u.apiKey,hint:"Given together with the API secret."}),t(S,{label:"NRS API secret",name:"apiSecret",type:"password",autoComplete:"off",error:u.apiSecret}),t(S,{label:"Base URL (optional)",name:"baseUrl",type:"url",error:u.baseUrl}),t(S,{label:"QR encryption (optional)",name:"qrEncryption",error:u.qrEncryption,hint:"Such as RSA-PKCS1-v1_5."}),t(te,{error:e,fields:xr}),o&&t(Ht,{children:"Saved. The secrets are stored encrypted and cleared from this page."}),t("button",{type:"submit",disabled:i,children:i?"Saving…":"Save settings"})]})}function qr(){const{params:n}=ee(),e=n.projectId,r=J(()=>R(ur,{id:e}),[e]),[i,a]=_(),[o,s]=_(),[d,u]=_(),[l,h]=_("3600"),[p,c]=_(!1),[f,g]=_(),b=r.data?.project,I=b?.apiKeys.edges??[],$=async()=>{if(o){c(!0),g(void 0);try{const m=await R(hr,{projectId:e,keyId:o.id,graceSeconds:Number(l)});a({keyName:m.rotateApiKey.key.keyName,clientId:m.rotateApiKey.key.clientId,secret:m.rotateApiKey.clientSecret,rotated:!0}),s(void 0),r.reload()}catch(m){g(m)}finally{c(!1)}}},y=async()=>{if(d){c(!0),g(void 0);try{await R(fr,{projectId:e,keyId:d.id}),u(void 0),r.reload()}catch(m){g(m)}finally{c(!1)}}};return t(K,{title:b?`${b.name}: API keys`:"API keys",children:[t(pe,{projectId:e,project:b?.name}),r.loading&&!b&&t(M,{label:"Loading keys…"}),t(H,{error:r.error,retry:r.reload}),i&&t(Or,{r:i,onDone:()=>a(void 0)}),t(H,{error:f}),b&&I.length===0&&t(ce,{children:"No API keys yet. Create one to call the API from your systems."}),I.length>0&&t("div",{class:"table-wrap",tabIndex:0,role:"region","aria-label":"API keys",children:t("table",{children:[t("caption",{class:"sr-only",children:"API keys"}),t("thead",{children:t("tr",{children:[t("th",{scope:"col",children:"Name"}),t("th",{scope:"col",children:"Client id"}),t("th",{scope:"col",children:"Secret"}),t("th",{scope:"col",children:"Status"}),t("th",{scope:"col",children:"Last used"}),t("th",{scope:"col",children:t("span",{class:"sr-only",children:"Actions"})})]})}),t("tbody",{children:I.map(({node:m})=>t("tr",{children:[t("th",{scope:"row",children:[m.keyName,t("div",{class:"muted small",children:m.scopes.length===r.data.apiKeyScopes.length?"all scopes":m.scopes.join(", ")})]}),t("td",{children:t("code",{children:m.clientId})}),t("td",{children:t("code",{children:["…",m.secretLast4]})}),t("td",{children:[t(q,{tone:m.status==="ACTIVE"?"ok":"bad",children:m.status.toLowerCase()}),m.rotatedAt&&t("div",{class:"muted small",children:["rotated ",Z(m.rotatedAt)]})]}),t("td",{children:Z(m.lastUsedAt)}),t("td",{class:"row-actions",children:m.status==="ACTIVE"&&t(F,{children:[t("button",{type:"button",class:"secondary",onClick:()=>s({id:m.id,name:m.keyName}),"aria-label":`Rotate ${m.keyName}`,children:"Rotate"}),t("button",{type:"button",class:"danger",onClick:()=>u({id:m.id,name:m.keyName}),"aria-label":`Revoke ${m.keyName}`,children:"Revoke"})]})})]},m.id))})]})}),r.data&&t(Lr,{projectId:e,scopes:r.data.apiKeyScopes,onCreated:m=>{a(m),r.reload()}}),t(wt,{open:!!o,title:`Rotate ${o?.name??""}`,confirm:"Rotate key",busy:p,onConfirm:$,onClose:()=>s(void 0),children:[t("p",{children:"The key gets a new secret. The old one keeps working for the grace period, so your systems can switch without downtime."}),t(se,{label:"Grace period for the old secret",name:"grace",value:l,onChange:m=>h(m.currentTarget.value),children:[t("option",{value:"0",children:"None: the old secret stops now"}),t("option",{value:"3600",children:"1 hour"}),t("option",{value:"86400",children:"1 day"}),t("option",{value:"604800",children:"7 days"})]})]}),t(wt,{open:!!d,title:`Revoke ${d?.name??""}?`,confirm:"Revoke key",danger:!0,busy:p,onConfirm:y,onClose:()=>u(void 0),children:t("p",{children:"Every request with this key is refused from now on. This cannot be undone."})})]})}function Or(n){return t("section",{class:"panel secret","aria-labelledby":"secret-title",children:[t("h2",{id:"secret-title",tabIndex:-1,ref:e=>e?.focus(),children:[n.r.rotated?"New secret":"Your new key",": ",n.r.keyName]}),t("p",{class:"warning",role:"alert",children:"Copy the secret now and store it safely. It is shown only this once: einvoice keeps only a hash of it."}),t("dl",{class:"facts",children:[t("dt",{children:"Client id (X-Client-Id)"}),t("dd",{children:[t("code",{"data-testid":"client-id",children:n.r.clientId})," ",t(kt,{text:n.r.clientId,label:"Copy client id"})]}),t("dt",{children:"Client secret (X-Client-Secret)"}),t("dd",{children:[t("code",{"data-testid":"client-secret",class:"wrap",children:n.r.secret})," ",t(kt,{text:n.r.secret,label:"Copy secret"})]})]}),t("button",{type:"button",onClick:n.onDone,children:"I have stored the secret"})]})}function Lr(n){const[e,r]=_(),[i,a]=_(!1),o=async d=>{d.preventDefault();const u=d.currentTarget,l=new FormData(u),h=l.getAll("scopes").map(String);a(!0),r(void 0);try{const p=await R(pr,{input:{projectId:n.projectId,keyName:String(l.get("keyName")),scopes:h.length?h:null}});u.reset(),n.onCreated({keyName:p.createApiKey.key.keyName,clientId:p.createApiKey.key.clientId,secret:p.createApiKey.clientSecret,rotated:!1})}catch(p){r(p)}finally{a(!1)}},s=ne(e);return t("form",{class:"panel",onSubmit:o,noValidate:!0,children:[t("h2",{children:"New API key"}),t(S,{label:"Key name",name:"keyName",required:!0,error:s.keyName,hint:"Such as erp-production."}),t("fieldset",{children:[t("legend",{children:"Scopes (none ticked: every scope)"}),t("div",{class:"checks",children:n.scopes.map(d=>t("label",{class:"check",children:[t("input",{type:"checkbox",name:"scopes",value:d})," ",t("code",{children:d})]},d))}),s.scopes&&t("p",{class:"field-error",children:s.scopes})]}),t(te,{error:e,fields:["keyName","scopes"]}),t("button",{type:"submit",disabled:i,children:i?"Creating…":"Create key"})]})}const Je=n=>n==="PASSED"?"ok":n==="FAILED"||n==="CANCELLED"?"bad":n==="RETRYING"?"warn":"info";function Ur(){const{params:n}=ee(),e=n.projectId,[r,i]=_([]),a=r[r.length-1],o=J(()=>R(gr,{id:e,after:a??null}),[e,a]),s=o.data?.project,d=s?.certificationRuns.edges??[];return t(K,{title:s?`${s.name}: certification`:"Certification",children:[t(pe,{projectId:e,project:s?.name}),t("p",{class:"lead",children:"A certification run is a smoke test of this project against NRS, executed as a durable workflow. Watch its steps arrive live."}),s&&t(zr,{projectId:e,configured:s.authority.configured}),t("h2",{children:"Past runs"}),o.loading&&!s&&t(M,{label:"Loading runs…"}),t(H,{error:o.error,retry:o.reload}),s&&d.length===0&&t(ce,{children:"No runs yet."}),d.length>0&&t("div",{class:"table-wrap",tabIndex:0,role:"region","aria-label":"Certification runs",children:t("table",{children:[t("caption",{class:"sr-only",children:"Certification runs"}),t("thead",{children:t("tr",{children:[t("th",{scope:"col",children:"Run"}),t("th",{scope:"col",children:"Status"}),t("th",{scope:"col",children:"Type"}),t("th",{scope:"col",children:"Issue date"}),t("th",{scope:"col",children:"Started"})]})}),t("tbody",{children:d.map(({node:u})=>t("tr",{children:[t("th",{scope:"row",children:[t("a",{href:`/projects/${e}/certification/${u.id}`,children:u.id.slice(0,8)}),u.failureReason&&t("div",{class:"muted small",children:u.failureReason})]}),t("td",{children:t(q,{tone:Je(u.status),children:u.status.toLowerCase()})}),t("td",{children:u.invoiceType}),t("td",{children:u.issueDate}),t("td",{children:Z(u.createdAt)})]},u.id))})]})}),t("div",{class:"pager",children:[r.length>0&&t("button",{type:"button",class:"secondary",onClick:()=>i(r.slice(0,-1)),children:"Newer runs"}),s?.certificationRuns.pageInfo.hasNextPage&&t("button",{type:"button",class:"secondary",onClick:()=>i([...r,s.certificationRuns.pageInfo.endCursor]),children:"Older runs"})]})]})}function Kr(){return new Date().toISOString().slice(0,10)}function zr(n){const e=U(),[r,i]=_(),[a,o]=_(!1),[s,d]=_(),u=async h=>{h.preventDefault();const p=new FormData(h.currentTarget),c=String(p.get("invoicePayload")??"").trim();let f=null;if(d(void 0),c)try{f=JSON.parse(c)}catch(g){d(`Not valid JSON: ${g.message}`);return}o(!0),i(void 0);try{const g=await R(_r,{input:{projectId:n.projectId,invoiceType:String(p.get("invoiceType")),issueDate:String(p.get("issueDate")),invoicePayload:f}});e.route(`/projects/${n.projectId}/certification/${g.startCertificationRun.id}`)}catch(g){i(g)}finally{o(!1)}},l=ne(r);return t("form",{class:"panel",onSubmit:u,noValidate:!0,children:[t("h2",{children:"Start a run"}),!n.configured&&t("p",{class:"warning",children:"This project has no tax authority settings yet: configure it on the Overview tab first."}),t("div",{class:"row",children:[t(se,{label:"Invoice type",name:"invoiceType",error:l.invoiceType,children:[t("option",{value:"B2B",children:"B2B: to a business"}),t("option",{value:"B2C",children:"B2C: to a consumer"}),t("option",{value:"B2G",children:"B2G: to a government body"})]}),t(S,{label:"Issue date",name:"issueDate",type:"date",value:Kr(),required:!0,error:l.issueDate})]}),t("div",{class:`field${s||l.invoicePayload?" invalid":""}`,children:[t("label",{for:"run-payload",children:"Invoice JSON (optional)"}),t("textarea",{id:"run-payload",name:"invoicePayload",rows:4,"aria-describedby":"run-payload-hint",spellcheck:!1}),t("p",{class:"hint",id:"run-payload-hint",children:"Leave empty to certify a sample invoice of the chosen type."}),(s||l.invoicePayload)&&t("p",{class:"field-error",children:s??l.invoicePayload})]}),t(te,{error:r,fields:["invoiceType","issueDate","invoicePayload"]}),t("button",{type:"submit",disabled:a,children:a?"Starting…":"Start run"})]})}function Br(){const{params:n}=ee(),{projectId:e,runId:r}=n,[i,a]=_(),[o,s]=_(),[d,u]=_(!1);return Q(()=>{let l;return a(void 0),s(void 0),R(mr,{id:r}).then(h=>{a(h.certificationRun),!["PASSED","FAILED","CANCELLED"].includes(h.certificationRun.status)&&(u(!0),l=Rn(yr,{id:r},c=>a(c.certificationRunUpdated),c=>{u(!1),c&&s(c)}))},s),()=>l?.()},[r]),t(K,{title:`Certification run ${r.slice(0,8)}`,children:[t(pe,{projectId:e}),t("p",{children:t("a",{href:`/projects/${e}/certification`,children:"All runs"})}),!i&&!o&&t(M,{label:"Loading the run…"}),t(H,{error:o}),i&&t(F,{children:[t("dl",{class:"facts",children:[t("dt",{children:"Status"}),t("dd",{children:[t("span",{"data-testid":"run-status",children:t(q,{tone:Je(i.status),children:i.status.toLowerCase()})})," ",d&&t("span",{class:"muted small",role:"status",children:"live"})]}),t("dt",{children:"Invoice type"}),t("dd",{children:i.invoiceType}),t("dt",{children:"Issue date"}),t("dd",{children:i.issueDate}),t("dt",{children:"IRN"}),t("dd",{children:t("code",{children:i.irn??"—"})}),i.failureReason&&t(F,{children:[t("dt",{children:"Why it failed"}),t("dd",{children:i.failureReason})]}),t("dt",{children:"Workflow"}),t("dd",{children:i.temporal.uiUrl?t("a",{href:i.temporal.uiUrl,target:"_blank",rel:"noopener noreferrer",children:[i.temporal.workflowId," in the Temporal UI"]}):t("code",{children:i.temporal.workflowId})})]}),t("h2",{children:"Steps"}),i.steps.length===0&&t(ce,{children:"No step has started yet."}),t("ol",{class:"steps","aria-live":"polite",children:i.steps.map(l=>t("li",{class:"step",children:t("details",{children:[t("summary",{children:[t(q,{tone:Je(l.status),children:l.status.toLowerCase()})," ",t("strong",{children:l.name}),l.durationMs!=null&&t("span",{class:"muted small",children:[" ",l.durationMs," ms"]})]}),t("dl",{class:"facts small",children:[t("dt",{children:"Attempts"}),t("dd",{children:l.attempts}),t("dt",{children:"Started"}),t("dd",{children:Z(l.startedAt)}),t("dt",{children:"Finished"}),t("dd",{children:Z(l.finishedAt)}),t("dt",{children:"HTTP status"}),t("dd",{children:l.httpStatus??"—"}),t("dt",{children:"NRS error id"}),t("dd",{children:l.nrsErrorId??"—"}),t("dt",{children:"Message"}),t("dd",{children:l.message||"—"})]})]})},l.name))})]})]})}const Se=["#1d4ed8","#b45309","#047857","#7c3aed","#be123c","#0e7490","#4d7c0f","#9f1239"];function Te(n){return n.toISOString().slice(0,10)}function Fr(){const{params:n}=ee(),e=n.projectId,[r,i]=_(()=>Te(new Date(Date.now()-29*864e5))),[a,o]=_(()=>Te(new Date)),[s,d]=_(""),u=J(()=>R(vr,{id:e,from:r||null,to:a||null,keyId:s||null}),[e,r,a,s]),l=u.data?.project,h=l?.usage;return t(K,{title:l?`${l.name}: usage`:"Usage",children:[t(pe,{projectId:e,project:l?.name}),t("form",{class:"filters",onSubmit:p=>p.preventDefault(),"aria-label":"Usage filters",children:[t(se,{label:"API key",name:"keyId",value:s,onChange:p=>d(p.currentTarget.value),children:[t("option",{value:"",children:"All keys"}),l?.apiKeys.edges.map(({node:p})=>t("option",{value:p.id,children:[p.keyName,p.status==="REVOKED"?" (revoked)":""]},p.id))]}),t(S,{label:"From",name:"from",type:"date",value:r,onChange:p=>i(p.currentTarget.value)}),t(S,{label:"To",name:"to",type:"date",value:a,onChange:p=>o(p.currentTarget.value)}),t("button",{type:"button",class:"secondary",onClick:u.reload,children:"Refresh"})]}),u.loading&&!h&&t(M,{label:"Loading usage…"}),t(H,{error:u.error,retry:u.reload}),h&&t(F,{children:[t("p",{children:[t("strong",{"data-testid":"usage-total",children:h.total})," calls from ",h.from," to ",h.to,u.loading&&t("span",{class:"muted small",children:" (updating…)"})]}),h.total===0?t(ce,{children:"No calls in this period. Calls made with the project's API keys show here, per operation and day."}):t(Mr,{from:h.from,to:h.to,daily:h.daily,operations:h.byOperation.map(p=>p.operation)}),h.byOperation.length>0&&t("div",{class:"table-wrap",tabIndex:0,role:"region","aria-label":"Calls per operation",children:t("table",{children:[t("caption",{children:"Calls per operation"}),t("thead",{children:t("tr",{children:[t("th",{scope:"col",children:"Operation"}),t("th",{scope:"col",class:"num",children:"Calls"})]})}),t("tbody",{children:h.byOperation.map(p=>t("tr",{children:[t("th",{scope:"row",children:t("code",{children:p.operation})}),t("td",{class:"num",children:p.count})]},p.operation))})]})})]})]})}function Mr(n){const e=[];for(let p=new Date(`${n.from}T00:00:00Z`);Te(p)<=n.to&&e.length<400;p=new Date(p.getTime()+864e5))e.push(Te(p));const r=[...n.operations].sort(),i=new Map;for(const p of n.daily)i.has(p.date)||i.set(p.date,new Map),i.get(p.date).set(p.operation,p.count);const a=e.map(p=>[...i.get(p)?.values()??[]].reduce((c,f)=>c+f,0)),o=Math.max(1,...a),s=720,d=220,u=28,l=(s-u)/e.length,h=e.map((p,c)=>a[c]?`${p}: ${a[c]}`:"").filter(Boolean).join("; ");return t("figure",{class:"chart",children:[t("svg",{viewBox:`0 0 ${s} ${d+20}`,role:"img","aria-label":`Calls per day. ${h}`,"data-testid":"usage-chart",children:[t("line",{x1:u,y1:d,x2:s,y2:d,class:"axis"}),t("text",{x:u-4,y:12,class:"tick","text-anchor":"end",children:o}),t("text",{x:u-4,y:d,class:"tick","text-anchor":"end",children:"0"}),e.map((p,c)=>{let f=d;return t("g",{children:[r.map((g,b)=>{const I=i.get(p)?.get(g)??0;if(!I)return null;const $=I/o*(d-16);return f-=$,t("rect",{x:u+c*l+1,y:f,width:Math.max(1,l-2),height:$,fill:Se[b%Se.length],children:t("title",{children:[p," ",g,": ",I]})},g)}),(c===0||c===e.length-1||e.length<=14&&c%2===0)&&t("text",{x:u+c*l+l/2,y:d+14,class:"tick","text-anchor":"middle",children:p.slice(5)})]},p)})]}),t("figcaption",{children:t("ul",{class:"legend",children:r.map((p,c)=>t("li",{children:[t("svg",{width:"12",height:"12","aria-hidden":"true",children:t("rect",{width:"12",height:"12",fill:Se[c%Se.length]})})," ",p]},p))})})]})}function Hr(){const{params:n}=ee(),e=n.orgId,[r,i]=_(""),[a,o]=_([]),s=a[a.length-1],d=J(()=>R(Ir,{org:e,action:r||null,after:s??null}),[e,r,s]),u=d.data?.auditLogs.edges??[];return t(K,{title:"Audit log",actions:t(Gt,{orgId:e}),lead:"Every change made in this organization, newest first. Entries are hash-chained, so tampering is detectable.",children:[t(Qt,{orgId:e}),t("form",{class:"filters",onSubmit:l=>l.preventDefault(),"aria-label":"Audit filters",children:t(se,{label:"Action",name:"action",value:r,onChange:l=>{i(l.currentTarget.value),o([])},children:[t("option",{value:"",children:"All actions"}),d.data?.auditActions.map(l=>t("option",{value:l,children:l},l))]})}),d.loading&&!d.data&&t(M,{label:"Loading the audit log…"}),t(H,{error:d.error,retry:d.reload}),d.data&&u.length===0&&t(ce,{children:["No entries",r?` for ${r}`:"","."]}),u.length>0&&t("div",{class:"table-wrap",tabIndex:0,role:"region","aria-label":"Audit entries",children:t("table",{"data-testid":"audit-table",children:[t("caption",{class:"sr-only",children:"Audit entries"}),t("thead",{children:t("tr",{children:[t("th",{scope:"col",children:"When"}),t("th",{scope:"col",children:"Action"}),t("th",{scope:"col",children:"Actor"}),t("th",{scope:"col",children:"Target"}),t("th",{scope:"col",children:"From"}),t("th",{scope:"col",children:"Hash"})]})}),t("tbody",{children:u.map(({node:l})=>t("tr",{children:[t("td",{children:Z(l.createdAt)}),t("th",{scope:"row",children:t("code",{children:l.action})}),t("td",{children:[l.actor.type," ",t("code",{class:"small",children:l.actor.id.slice(0,8)})]}),t("td",{children:[l.target.type," ",t("code",{class:"small",children:l.target.id.slice(0,8)})]}),t("td",{class:"small",children:[l.ip,t("div",{class:"muted",children:l.requestId.slice(0,8)})]}),t("td",{children:t("code",{class:"small",title:`previous ${l.prevHash}`,children:l.hash.slice(0,12)})})]},l.id))})]})}),t("div",{class:"pager",children:[a.length>0&&t("button",{type:"button",class:"secondary",onClick:()=>o(a.slice(0,-1)),children:"Newer entries"}),d.data?.auditLogs.pageInfo.hasNextPage&&t("button",{type:"button",class:"secondary",onClick:()=>o([...a,d.data.auditLogs.pageInfo.endCursor]),children:"Older entries"})]})]})}function Jt(n){return n.map(String).join("\0")}function Vr(n){const e=[],r=new Map,i=(a,o,s,d,u)=>{const l=e.length;if(Array.isArray(a)&&a.length>0)e.push(`${s}${d}[`),a.forEach((h,p)=>i(h,[...o,p],`${s}  `,"",p<a.length-1?",":"")),e.push(`${s}]${u}`);else if(a&&typeof a=="object"&&!Array.isArray(a)&&Object.keys(a).length>0){const h=Object.entries(a);e.push(`${s}${d}{`),h.forEach(([p,c],f)=>i(c,[...o,p],`${s}  `,`${JSON.stringify(p)}: `,f<h.length-1?",":"")),e.push(`${s}}${u}`)}else e.push(`${s}${d}${JSON.stringify(a)}${u}`);r.set(Jt(o),[l,e.length-1])};return i(n,[],"","",""),{lines:e,spans:r}}function Wr(n,e){for(let r=e.length;r>=0;r--){const i=n.get(Jt(e.slice(0,r)));if(i)return r===e.length?i:[i[0],i[0]]}}function Qr(n){const{lines:e,spans:r}=Vr(n.value),i=new Map;for(const a of n.marks){const o=Wr(r,a.path);if(o)for(let s=o[0];s<=o[1];s++)i.has(s)||i.set(s,[]),s===o[0]&&i.get(s).push(a)}return t("div",{class:"json",role:"region","aria-label":"Invoice JSON with problems highlighted",tabIndex:0,children:t("ol",{children:e.map((a,o)=>{const s=i.get(o);return t("li",{class:s?"marked":void 0,id:s?.[0]?`line-${s[0].id}`:void 0,children:[t("code",{children:a}),s&&s.length>0&&t("span",{class:"sr-only",children:[" problem: ",s.map(d=>d.label).join("; ")]})]},o)})})})}function Ke(n){if(!n.trim())return{error:"Paste or upload an invoice first."};try{const e=JSON.parse(n);return!e||typeof e!="object"||Array.isArray(e)?{error:"The invoice must be a JSON object."}:{value:e}}catch(e){return{error:`Not valid JSON: ${e.message}`}}}function St(n){const e=n.map(r=>typeof r=="number"?r:String(r));return e[0]==="input"&&e[1]==="payload"?e.slice(2):e}function Gr(){const{params:n}=ee(),e=n.projectId,[r,i]=_(""),[a,o]=_("B2B"),[s,d]=_(""),[u,l]=_(),[h,p]=_(),[c,f]=_(),[g,b]=_(),[I,$]=_(),[y,m]=_(""),[E,O]=_(),[V,re]=_(""),[G,D]=_("");Q(()=>()=>{I&&URL.revokeObjectURL(I)},[I]);const N=v=>{i(v);const{value:k}=Ke(v);k&&(typeof k.issue_date=="string"&&D(k.issue_date),typeof k.irn=="string"&&re(k.irn.split("-").slice(0,-2).join("-")||k.irn),typeof k.invoice_kind=="string"&&o(k.invoice_kind.toUpperCase()))},L=async(v,k)=>{m(v),O(void 0);try{await k()}catch(z){O(z)}finally{m("")}},Xt=()=>{const{value:v,error:k}=Ke(r);l(k),v&&L("validate",async()=>{const z=await R(br,{projectId:e,input:{invoiceTypeCode:a,taxAuthorityCode:"NRS",payload:v,profile:s==="NRS"||s==="STRICT"?s:null}});p({value:v,report:z.validateInvoice,profile:z.project.validationProfile})})},Zt=v=>{v.preventDefault(),L("irn",async()=>{const k=await R($r,{projectId:e,input:{invoiceReference:V,invoiceTypeCode:a,taxAuthorityCode:"NRS",issueDate:G}});f(k.generateIrn);const z=await R(wr,{projectId:e,input:{irn:k.generateIrn.irn}});b(z.invoiceQrCode)})},en=()=>{const{value:v,error:k}=Ke(r);l(k),v&&L("render",async()=>{const z=await R(kr,{projectId:e,input:{invoiceType:a,payload:v}});if(!z.renderInvoice.pdfBase64)throw new Error("The server answered no PDF.");const nn=Uint8Array.from(atob(z.renderInvoice.pdfBase64),rn=>rn.charCodeAt(0));$(URL.createObjectURL(new Blob([nn],{type:"application/pdf"})))})},tn=async v=>{const k=v.currentTarget.files?.[0];if(k){if(k.size>9e5){l("The file is larger than the 900 KB an invoice may be.");return}N(await k.text())}},qe=h?[...h.report.errors,...h.report.warnings]:[],ct=ne(E);return t(K,{title:"Invoice workbench",lead:"Paste or upload an invoice as NRS expects it, check it against NRS's schema and rules, issue its IRN and QR code, and preview its PDF.",children:[t(pe,{projectId:e}),t("div",{class:"workbench",children:[t("div",{class:"panel",children:[t("div",{class:"row",children:[t(se,{label:"Invoice kind",name:"kind",value:a,onChange:v=>o(v.currentTarget.value),children:[t("option",{value:"B2B",children:"B2B"}),t("option",{value:"B2C",children:"B2C"}),t("option",{value:"B2G",children:"B2G"})]}),t(se,{label:"Validation profile",name:"profile",value:s,onChange:v=>d(v.currentTarget.value),children:[t("option",{value:"",children:"The project's profile"}),t("option",{value:"NRS",children:"NRS: what NRS refuses is an error"}),t("option",{value:"STRICT",children:"Strict: consistency checks are errors too"})]}),t("div",{class:"field",children:[t("label",{for:"wb-file",children:"Upload a JSON file"}),t("input",{id:"wb-file",type:"file",accept:"application/json,.json",onChange:tn})]})]}),t("div",{class:`field${u?" invalid":""}`,children:[t("label",{for:"wb-json",children:"Invoice JSON"}),t("textarea",{id:"wb-json",rows:16,spellcheck:!1,value:r,"aria-invalid":u?"true":void 0,"aria-describedby":u?"wb-json-error":void 0,onInput:v=>N(v.currentTarget.value)}),u&&t("p",{class:"field-error",id:"wb-json-error",children:u})]}),t("div",{class:"buttons",children:[t("button",{type:"button",onClick:Xt,disabled:!!y,children:y==="validate"?"Validating…":"Validate"}),t("button",{type:"button",class:"secondary",onClick:en,disabled:!!y,children:y==="render"?"Rendering…":"Preview PDF"})]}),t(te,{error:E,fields:["invoiceReference","issueDate"]})]}),h&&t("section",{class:"panel","aria-labelledby":"wb-result",children:[t("h2",{id:"wb-result",tabIndex:-1,ref:v=>v?.focus(),children:[h.report.valid?t(q,{tone:"ok",children:"valid"}):t(q,{tone:"bad",children:"invalid"})," ",h.report.errors.length," errors, ",h.report.warnings.length," warnings"]}),t("p",{class:"muted small",children:["Schema ",h.report.schemaVersion,", rules ",h.report.ruleset,s===""&&`, the project's profile (${h.profile.toLowerCase()})`]}),qe.length>0&&t("ol",{class:"issues","data-testid":"issues",children:qe.map((v,k)=>{const z=St(v.loc);return t("li",{class:v.severity,children:[t(q,{tone:v.severity==="error"?"bad":"warn",children:v.severity})," ",t("code",{children:z.join(".")||"(invoice)"}),": ",v.message," ",t("span",{class:"muted small",children:v.rule})," ",t("a",{href:`#line-issue-${k}`,children:"show"})]},k)})}),t(Qr,{value:h.value,marks:qe.map((v,k)=>({path:St(v.loc),label:v.message,id:`issue-${k}`}))})]}),t("form",{class:"panel",onSubmit:Zt,noValidate:!0,children:[t("h2",{children:"IRN and QR code"}),t("div",{class:"row",children:[t(S,{label:"Invoice reference",name:"invoiceReference",value:V,onInput:v=>re(v.currentTarget.value),error:ct.invoiceReference}),t(S,{label:"Issue date",name:"issueDate",type:"date",value:G,onInput:v=>D(v.currentTarget.value),error:ct.issueDate})]}),t("button",{type:"submit",disabled:!!y,children:y==="irn"?"Generating…":"Generate IRN and QR"}),c&&t(Ht,{children:["IRN ",t("code",{"data-testid":"irn",children:c.irn})]}),g&&t("div",{class:"qr",children:[g.qrPngBase64&&t("img",{src:`data:image/png;base64,${g.qrPngBase64}`,alt:`QR code of ${g.irn}`,width:180,height:180}),t("p",{class:"small",children:["Encrypted payload (",g.encryption,", key ",g.keyFingerprint.slice(0,16),"…):"]}),t("code",{class:"wrap small",children:g.qrPayload})]})]}),I&&t("section",{class:"panel","aria-labelledby":"wb-pdf",children:[t("h2",{id:"wb-pdf",children:"PDF preview"}),t("iframe",{src:I,title:"Invoice PDF preview",class:"pdf","data-testid":"pdf"}),t("p",{children:t("a",{href:I,download:"invoice.pdf",children:"Download the PDF"})})]})]})]})}function Yt(n){return t(K,{title:n.error?"Something went wrong":"Page not found",children:[n.error?t(H,{error:n.error}):t("p",{children:"There is nothing at this address."}),t("p",{children:t("a",{href:"/",children:"Go to your projects"})})]})}const Jr=["/login","/signup"];function Yr(){return t(be,{children:t(Xr,{})})}function Xr(){const n=Sn(X),e=U();Q(()=>{n.status==="unknown"&&Ee()},[n.status]);const r=Jr.includes(e.path);return Q(()=>{if(n.status==="signedOut"&&!r){const i=e.url!=="/"?`?next=${encodeURIComponent(e.url)}`:"";e.route(`/login${i}`,!0)}},[n.status,r,e.url]),n.status==="unknown"?t("main",{id:"main",class:"center",children:t(M,{label:"Signing you in…"})}):r||n.status!=="signedIn"?t("main",{id:"main",class:"center",children:t(He,{children:[t(x,{path:"/login",component:Dr}),t(x,{path:"/signup",component:Rr}),t(x,{default:!0,component:()=>t(M,{})})]})}):t(ti,{email:n.user?.email??"",children:t(He,{children:[t(x,{path:"/",component:Zr}),t(x,{path:"/orgs",component:Pr}),t(x,{path:"/orgs/:orgId/projects",component:Nr}),t(x,{path:"/orgs/:orgId/audit",component:Hr}),t(x,{path:"/projects/:projectId",component:Tr}),t(x,{path:"/projects/:projectId/keys",component:qr}),t(x,{path:"/projects/:projectId/certification",component:Ur}),t(x,{path:"/projects/:projectId/certification/:runId",component:Br}),t(x,{path:"/projects/:projectId/usage",component:Fr}),t(x,{path:"/projects/:projectId/workbench",component:Gr}),t(x,{default:!0,component:Yt})]})})}function Zr(){const n=U(),e=J(()=>R(st),[]);return Q(()=>{const r=e.data?.me.organizations.edges.map(o=>o.node.id)??[];if(!e.data)return;const i=localStorage.getItem(ue),a=r.find(o=>o===i)??r[0];n.route(a?`/orgs/${a}/projects`:"/orgs",!0)},[e.data]),e.error?t(Yt,{error:e.error}):t(M,{})}async function ei(n){Dn();try{await R(ir)}catch{}try{await at(or,{})}catch{}ot(),n("/login")}function ti(n){const e=U();return t(F,{children:[t("a",{class:"skip",href:"#main",children:"Skip to content"}),t("header",{class:"top",children:[t("a",{class:"brand",href:"/",children:"einvoice"}),t("nav",{"aria-label":"Account",class:"account",children:[t("a",{href:"/orgs","aria-current":e.path==="/orgs"?"page":void 0,children:"Organizations"}),t("span",{class:"email",title:n.email,children:n.email}),t("button",{type:"button",class:"secondary",onClick:()=>{ei(e.route)},children:"Log out"})]})]}),t("main",{id:"main",children:n.children})]})}un(t(Yr,{}),document.getElementById("app"));
